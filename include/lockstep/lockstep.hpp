// Everything lockstep offers, in one include.
#pragma once
#include "lockstep/apsp.hpp"
#include "lockstep/blas1.hpp"
#include "lockstep/csr.hpp"
#include "lockstep/error.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/tuning_db.hpp"
#include "lockstep/version.hpp"
