// Everything lockstep offers, in one include.
#pragma once
#include "lockstep/blas1.hpp"
#include "lockstep/csr.hpp"
#include "lockstep/error.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/tolerance.hpp"
#include "lockstep/spmv.hpp"
#include "lockstep/spmv_measure.hpp"
#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tuning_db.hpp"
#include "lockstep/version.hpp"
