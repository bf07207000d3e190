// Database search over MPI ranks, one device each: every rank holds the queries and the whole
// database (a prepared database, `lockstep makedb`, is mapped: a rank reads only the pages of its
// share's residues), searches its share (database_shares: contiguous, about equal residues) and
// rank 0 gathers the hits and merges them into the one-device search's top K (ties by database
// order), hits, ends and order the same as one device searching it all.
#pragma once
#include <mpi.h>

#include "lockstep/search.hpp"

namespace lockstep::mpi {

/// Collective. Rank 0's result holds the hits (the other ranks' hold none); cells, recomputed,
/// kernel_ms and batches are the sums over the ranks, ms the slowest rank's. o.devices and the
/// cpu algorithm are refused (input_error). A failure on any rank (a device error, a refused
/// option) throws the same collective_error on every rank, naming the first failing rank.
SearchResult search(MPI_Comm comm, Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                    const Scoring& s, const SearchOptions& o = {});

}  // namespace lockstep::mpi
