// lockstep::mpi, the distributed part of lockstep (target lockstep::mpi, built when CMake finds
// MPI): a CSR matrix split over ranks, its halo-exchanging SpMV, distributed dot products, and
// the MPI session, device choice and failure agreement that a distributed solver needs.
#pragma once
#include "lockstep/mpi/distributed_csr.hpp"
#include "lockstep/mpi/session.hpp"
