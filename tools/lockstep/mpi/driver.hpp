// Shared by the distributed commands: the MPI session around a command (a collective_error
// becomes the same message and exit code on every rank; any other failure, which may leave
// ranks waiting in a collective, ends the job with MPI_Abort), the rank's device, the matrix
// split over the ranks (a generated grid on every rank, its own slab; else read or generated on
// rank 0 and scattered) and each rank's partition line.
#pragma once
#include <functional>
#include <iostream>
#include <lockstep/lockstep.hpp>
#include <lockstep/mpi.hpp>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "command.hpp"
#include "exit_codes.hpp"
#include "matrix_source.hpp"
#include "report.hpp"

namespace lockstep::cli {

template <typename F>
int run_distributed(const std::string& command, F&& body) {
  mpi::Session session;
  int code = 0;
  try {
    code = body(MPI_COMM_WORLD);
  } catch (const mpi::collective_error& e) {
    // Every rank holds the same message, naming the failing rank: rank 0 prints it once.
    if (session.rank() == 0) std::cerr << "lockstep " + command + ": " + e.what() + "\n";
    code = e.exit_code();
  } catch (...) {  // not agreed on: other ranks may wait in a collective, so abort them all
    std::ostringstream err;
    code = exit_code_of_current_exception(
        "lockstep " + command + ": rank " + std::to_string(session.rank()), err);
    std::cerr << err.str() + "lockstep " + command + ": aborting every rank\n";
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  // Every rank has printed before any exits: mpirun kills the others once one exits non-zero.
  std::cout.flush();
  MPI_Barrier(MPI_COMM_WORLD);
  return code;
}

/// Collective, first of a command: every rank was given the same problem (`description`: the
/// matrix and the options that shape the run), else the same error on every rank. Ranks of an
/// MPMD launch given different problems (`mpirun -np 1 lockstep cg a.mtx --distributed : -np 1
/// lockstep cg gen:laplace2d:8 --distributed`) used to wait forever in mismatched collectives.
inline void same_problem(MPI_Comm comm, const std::string& description) {
  const unsigned long long h = std::hash<std::string>{}(description);
  unsigned long long v[2] = {h, ~h};  // the largest hash and (complemented) the smallest
  MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  const bool differ = v[0] != ~v[1];
  mpi::agree(comm, differ ? 1 : 0,
             "the ranks were given different problems (this one: " + description +
                 "): every rank must run the same command on the same matrix");
}

/// This rank's context on its device (collective: a rank without a device stops them all).
template <typename T>
std::unique_ptr<Context> rank_context(MPI_Comm comm, const po::variables_map& vm) {
  std::unique_ptr<Context> ctx;
  mpi::collective(comm, [&] {
    ctx = std::make_unique<Context>(mpi::select_rank_device(comm, device_spec(vm)));
    if (sizeof(T) == 8 && !ctx->info().fp64) throw input_error(ctx->info().name + " has no fp64");
  });
  return ctx;
}

/// Root's whole matrix (empty on the other ranks), read or generated (collective agreement).
/// `check` (when given) runs on it there, inside the same agreement.
template <typename T>
Csr<T> root_matrix(MPI_Comm comm, const std::string& file,
                   const std::function<void(const Csr<T>&)>& check = {}) {
  Csr<T> a;
  mpi::collective(comm, [&] {
    if (mpi::rank(comm) != 0) return;
    a = matrix_source<T>(file);
    if (check) check(a);
  });
  return a;
}

/// --partition: nnz (row blocks of equal nonzeros), planes (blocks of whole planes: a
/// generated grid's, a file's bandwidth) or blocks[:PXxPYxPZ] (a generated grid's boxes over a
/// ranks grid, mpi::BlockGrid; by default the one of fewest shared faces); by default planes
/// for gen: matrices, nnz for files.
inline std::string partition_of(const po::variables_map& vm, const std::string& file) {
  std::string p = vm.count("partition")        ? vm["partition"].as<std::string>()
                  : file.rfind("gen:", 0) == 0 ? "planes"
                                               : "nnz";
  if (p != "nnz" && p != "planes" && p != "blocks" && p.rfind("blocks:", 0) != 0)
    throw usage_error("--partition is nnz, planes or blocks[:PXxPYxPZ], not '" + p + "'");
  if (p.rfind("blocks", 0) == 0 && file.rfind("gen:", 0) != 0)
    throw usage_error("--partition " + p + " needs a generated grid (gen:laplace3d:..., " +
                      "gen:laplace2d:...), not the file " + file);
  if (p.rfind("blocks:", 0) == 0) mpi::parse_ranks_grid(p.substr(7), "--partition");
  return p;
}

/// FILE split over the ranks (collective). A generated grid under --partition planes: every
/// rank generates its own slab of planes, nothing on rank 0 (unless `root_copy` asks for the
/// whole matrix there, for a check). Otherwise rank 0 reads or generates it, runs `check` on
/// it (a bad matrix: the same error on every rank) and scatters row blocks of equal nonzeros or
/// of whole planes of its bandwidth.
/// Under --partition blocks every rank generates its box, numbered box by box (mpi::BlockGrid;
/// `blocks`, when given, receives the ranks grid chosen, e.g. "1x2x2"); no whole matrix then.
template <typename T>
mpi::DistributedCsr<T> distributed_matrix(MPI_Comm comm, cl::CommandQueue& q,
                                          const std::string& file, const std::string& partition,
                                          Csr<T>* root_copy = nullptr,
                                          const std::function<void(const Csr<T>&)>& check = {},
                                          std::string* blocks = nullptr) {
  const int me = mpi::rank(comm), ranks = mpi::size(comm);
  std::optional<Grid> grid;
  mpi::collective(comm, [&] { grid = parse_grid(file); });
  if (partition.rfind("blocks", 0) == 0) {
    Csr<T> mine;
    mpi::BlockGrid g;
    mpi::collective(comm, [&] {
      if (root_copy)
        throw input_error("--partition " + partition +
                          " renumbers the grid box by box: not with a whole-matrix check");
      const auto shape = partition.size() > 7
                             ? mpi::parse_ranks_grid(partition.substr(7), "--partition")
                             : std::array<int, 3>{0, 0, 0};
      g = mpi::BlockGrid::make(grid->dims, grid->nx, grid->ny, grid->nz, ranks, shape);
      mine = mpi::laplace_block(g, me).cast<T>();
    });
    if (blocks) *blocks = g.str();
    return mpi::DistributedCsr<T>(comm, q, g.offsets, mine);
  }
  if (grid && partition == "planes" && !root_copy) {
    const std::vector<int32_t> offsets =
        mpi::partition_by_planes(int32_t(grid->rows()), grid->plane(), ranks);
    Csr<T> mine;
    mpi::collective(
        comm, [&] { mine = grid_rows<T>(*grid, offsets[size_t(me)], offsets[size_t(me) + 1]); });
    return mpi::DistributedCsr<T>(comm, q, offsets, mine);
  }
  Csr<T> global = root_matrix<T>(comm, file, check);
  std::vector<int32_t> offsets;
  if (partition == "planes" && me == 0)
    offsets = mpi::partition_by_planes(global.rows, mpi::bandwidth(global), ranks);
  auto a = mpi::DistributedCsr<T>::scatter(comm, q, global, offsets);
  if (root_copy) *root_copy = std::move(global);
  return a;
}

/// One `partition` line per rank, printed by rank 0 (collective): its rows, nonzeros, halo
/// (values received per SpMV), values sent, neighbours, interior and early rows, the mean
/// time of its exchange's MPI part alone (host to host, `samples` exchanges; 0 when every
/// neighbour is on its host), the neighbours reached through shared memory and whether their
/// segments are registered with OpenCL (LOCKSTEP_MPI_HALO).
template <typename T>
long long print_partition(mpi::DistributedCsr<T>& a, int samples) {
  const double host_ms = mpi::time_host_exchange(a, samples);
  const int me = mpi::rank(a.comm()), ranks = mpi::size(a.comm());
  constexpr int k = 10;
  double mine[k] = {double(a.offsets()[size_t(me)]), double(a.local_rows()),
                    double(a.local_nnz()),           double(a.halo_size()),
                    double(a.send_volume()),         double(a.neighbours()),
                    double(a.interior_rows()),       host_ms,
                    double(a.shared_neighbours()),   double(a.shared_registered())};
  std::vector<double> all(me == 0 ? k * size_t(ranks) : 0);
  MPI_Gather(mine, k, MPI_DOUBLE, all.data(), k, MPI_DOUBLE, 0, a.comm());
  if (me == 0 && !a.shared_note().empty())
    std::cerr << "lockstep: the halo goes through MPI: " << a.shared_note() << "\n";
  long long halo = 0;
  for (int r = 0; me == 0 && r < ranks; ++r) {
    const double* v = &all[k * size_t(r)];
    Report p;
    p.add("partition rank", r).add("first_row", (long long)v[0]).add("rows", (long long)v[1]);
    p.add("nnz", (long long)v[2]).add("halo", (long long)v[3]).add("send", (long long)v[4]);
    p.add("neighbours", int(v[5])).add("interior", (long long)v[6]).add("host_mpi_ms", v[7]);
    p.add("shared_neighbours", int(v[8])).add("registered", int(v[9]));
    std::cout << p.str() << "\n";
    halo += (long long)v[3];
  }
  return halo;
}

}  // namespace lockstep::cli
