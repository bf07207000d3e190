// `mpirun -np P lockstep search QUERIES DB --distributed [options]`: one device per rank (--device
// as the other distributed commands take it), every rank reading QUERIES and DB (a rank other
// than 0 keeps only its share's codes: of a prepared database it reads and checks only those, a
// FASTA it reads twice; rank 0 reads DB whole, for the alignments of the hits it writes), each
// searching its share of the database (lockstep::mpi::search), the hits merged on rank 0, which
// writes the one output (the same bytes as one device) and the summary line (with ranks=P).
// Reading, searching and writing are each agreed on by every rank: a failure on any rank ends every
// rank with one message naming it.
#include <iostream>

#include "distributed.hpp"
#include "mpi/driver.hpp"
#include "search_command.hpp"

namespace lockstep::cli {

int distributed_search(const po::variables_map& vm, SearchSetup& st) {
  return run_distributed("search", [&](MPI_Comm comm) {
    const int me = mpi::rank(comm);
    std::string problem = "search " + st.qpath + " " + st.dpath +
                          " top=" + std::to_string(st.o.top) + " scoring=" + st.label + " " +
                          std::to_string(st.s.gap_open) + "/" + std::to_string(st.s.gap_extend);
    if (st.s.dna) problem += " strand=" + st.strand;
    same_problem(comm, problem);
    auto ctx = rank_context<float>(comm, vm);
    std::unique_ptr<Outputs> outs;
    SearchInputs in;
    mpi::collective(comm, [&] {
      if (me == 0) outs = search_outputs(vm);
      in = read_search_inputs(st, me == 0, me == 0 ? 1 : size_t(mpi::size(comm)), size_t(me));
    });
    const SequenceSet& queries = st.s.dna ? in.queries : in.queries_read;
    SearchResult r = mpi::search(comm, *ctx, queries, in.db, st.s, st.o);
    SearchRun run;
    run.device = ctx->info().name;
    run.devices = run.ranks = mpi::size(comm);
    mpi::collective(comm, [&] {
      if (me == 0) report_search(vm, st, in, r, run, *outs);
    });
    return 0;
  });
}

}  // namespace lockstep::cli
