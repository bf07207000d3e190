// What a DistributedCsr holds behind its interface (private to src/mpi): its layout, the device
// blocks, the send and receive lists, and the halo exchange in flight, which SpmvExchange and
// TransposeExchange (friends of DistributedCsr) change.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lockstep/mpi/distributed_csr.hpp"

namespace lockstep::mpi {

template <typename T>
struct DistributedCsrState {
  using Peer = typename DistributedCsr<T>::Peer;
  MPI_Comm comm_;
  cl::CommandQueue queue_, copy_queue_;  // kernels; the copies that overlap them
  std::vector<int32_t> offsets_, col_offsets_, global_row_, global_col_, halo_;
  bool square_ = true;
  int32_t interior_ = 0, early_ = 0;
  size_t local_nnz_ = 0;
  std::vector<Peer> sends_, recvs_;
  std::vector<int32_t> send_index_;  // local indices packed for sending
  std::unique_ptr<DeviceCsr<T>> interior_dev_, boundary_dev_;
  std::shared_ptr<DeviceCsr<T>> transpose_dev_;  // the local block's transpose, on first use
  cl::Buffer send_index_dev_, send_dev_, boundary_y_;
  std::shared_ptr<T> send_host_, recv_host_;  // pinned (mapped ALLOC_HOST_PTR) staging
  // The exchange in flight (exchange.cpp): which x, its events and requests.
  cl::Buffer exchange_x_;  // null: none in flight
  bool cpu_ = false;       // a CPU device: poll gently (it shares the cores)
  cl::Event pack_;
  std::vector<cl::Event> down_, up_;  // per send peer, per receive peer
  std::vector<MPI_Request> send_req_, recv_req_;
  std::vector<char> sent_;                // per send peer: MPI_Isend posted (or the ready flag)
  std::vector<char> posted_;              // per send peer: its download enqueued
  std::vector<char> arrived_, released_;  // per receive peer: upload enqueued; slice released
  std::shared_ptr<SharedHalo> shm_;       // same-host neighbours' segments; null: MPI only
  uint64_t seq_ = 0;                      // exchanges so far (the shared-memory flags' values)
  std::string shared_note_;
};

}  // namespace lockstep::mpi
