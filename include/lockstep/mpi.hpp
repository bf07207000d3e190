// lockstep::mpi, the distributed part of lockstep (target lockstep::mpi, built when CMake finds
// MPI): a CSR matrix split over ranks, its halo-exchanging SpMV, distributed dot products,
// breadth-first search over ranks (Graph500), database search over ranks, and the MPI session,
// device choice and failure agreement that a distributed solver needs.
#pragma once
#include "lockstep/mpi/bfs.hpp"
#include "lockstep/mpi/block_grid.hpp"
#include "lockstep/mpi/distributed_csr.hpp"
#include "lockstep/mpi/search.hpp"
#include "lockstep/mpi/session.hpp"
