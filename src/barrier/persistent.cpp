// PersistentKernel: resolves (strategy, groups) for a persistent kernel from the kernel's own
// discovered co-residency, builds it with the barrier's -D options and launches it once or once
// per phase. Discovery needs every argument set: before the caller's arguments exist, each one
// gets a placeholder (a scratch buffer, the configured local memory, or a zero scalar of the
// size the implementation accepts), which the kernel never reads because it returns from
// barrier_discovery() first.
#include "lockstep/persistent.hpp"

#include <algorithm>

namespace lockstep {
namespace {

// Sets every argument from index 1 on to a placeholder; __local ones share `local_mem` (all on
// the first, so the total that bounds occupancy is right).
// `scratch` must outlive the discovery launch (kernel arguments do not retain buffers).
void bind_placeholders(const cl::Buffer& scratch, cl::Kernel& k, size_t local_mem) {
  cl_uint args = k.getInfo<CL_KERNEL_NUM_ARGS>();
  bool first_local = true;
  const unsigned char zeros[128] = {};
  for (cl_uint i = 1; i < args; ++i) {
    cl_mem mem = scratch();
    if (clSetKernelArg(k(), i, sizeof(cl_mem), &mem) == CL_SUCCESS) continue;
    size_t lbytes = first_local ? std::max<size_t>(local_mem, 16) : 16;
    if (clSetKernelArg(k(), i, lbytes, nullptr) == CL_SUCCESS) {
      first_local = false;
      continue;
    }
    bool ok = false;
    for (size_t size : {4, 8, 2, 1, 16, 32, 64, 128})
      if (clSetKernelArg(k(), i, size, zeros) == CL_SUCCESS) {
        ok = true;
        break;
      }
    if (!ok)
      throw opencl_error("clSetKernelArg (placeholder for argument " + std::to_string(i) + " of " +
                             k.getInfo<CL_KERNEL_FUNCTION_NAME>() + ")",
                         CL_INVALID_ARG_SIZE);
  }
}

}  // namespace

BarrierChoice parse_barrier_choice(const std::string& name) {
  if (name == "auto") return auto_barrier;
  try {
    return parse_barrier(name);
  } catch (const input_error&) {
    std::string names = "auto";  // spelled by to_string only
    for (auto s : all_barriers()) names += ", " + to_string(s);
    throw input_error("unknown barrier '" + name + "' (expected " + names + ")");
  }
}

std::string to_string(const BarrierChoice& s) { return s ? to_string(*s) : "auto"; }

PersistentKernel::PersistentKernel(Context& ctx, const std::string& file, const std::string& name,
                                   const Defines& defines, const PersistentConfig& config)
    : ctx_(&ctx), file_(file), name_(name), defines_(defines), config_(config) {
  if (config.groups < 0 || config.max_groups < 0)
    throw input_error("persistent kernel: groups and max_groups must be >= 0");
  defines_.set("LOCAL_SIZE", config.local_size);
  // The group policy. An explicit count is kept (or refused, or clamped). Otherwise the count is
  // the useful maximum (max_groups) capped by what the kernel can hold: co-residency for an
  // in-kernel barrier, and the strategy's own limit (lock-free: G <= local size). Relaunch needs
  // no co-residency: it launches max_groups when given. An explicit strategy with its count
  // needs no probe: the real build's own discovery below decides. Otherwise probe with one
  // group's barrier (lock-free's probe is the lock: the strategies differ only in the barrier
  // body, not in what bounds residency).
  int groups = config.groups;
  Barrier s;
  const bool relaunch = config.barrier == Barrier::relaunch;
  if (config.barrier && (groups > 0 || (relaunch && config.max_groups > 0))) {
    s = *config.barrier;
    if (!groups) groups = config.max_groups;
  } else {
    // A CPU device's answer is its compute units whatever the kernel (max_coresident_groups: one
    // group per worker thread), so it needs no probe build: on PoCL a probe whose barrier
    // constants differ from the real build's (grouped-lock's group size, lock-free's lock) is a
    // whole extra LLVM compile.
    int resident = int(ctx.info().compute_units);
    if (ctx.info().type != "CPU") {
      Barrier probe = config.barrier.value_or(Barrier::lock);
      if (probe == Barrier::lock_free) probe = Barrier::lock;
      build(probe, 1);
      resident = coresident_;
    }
    if (!groups) groups = config.max_groups ? std::min(config.max_groups, resident) : resident;
    if (!config.barrier) {  // auto: the rule when the groups fit, else one launch per phase
      s = groups <= resident ? default_barrier(ctx.info(), groups, config.local_size)
                             : Barrier::relaunch;
      if (groups > barrier_group_limit(s, config.local_size)) s = Barrier::lock;
    } else {
      s = *config.barrier;
    }
    if (!config.groups) groups = std::min(groups, barrier_group_limit(s, config.local_size));
  }
  // The real build; its own residency can differ slightly from the probe's (other constants):
  // shrink until it holds, so a launch never waits on a group that cannot start. A count the
  // caller gave for an explicit strategy is refused instead, unless clamp is set.
  const bool clamp = config.clamp || !config.groups;
  for (int attempt = 0;; ++attempt) {
    build(s, groups);
    if (!in_kernel() || groups <= coresident_) break;
    if ((config.barrier && !clamp) || attempt == 3) barrier_->require_coresident(coresident_);
    groups = coresident_;
  }
}

void PersistentKernel::build(Barrier s, int groups) {
  barrier_.emplace(*ctx_, s, groups, config_.local_size, config_.branch, config_.variant);
  kernel_ = ctx_->kernel(file_, name_, defines());
  if (!scratch_()) scratch_ = make_buffer(ctx_->context(), CL_MEM_READ_WRITE, 256);
  bind_placeholders(scratch_, kernel_, config_.local_mem);
  coresident_ =
      max_coresident_groups(*ctx_, kernel_, size_t(config_.local_size), config_.local_mem);
  set_arg(kernel_, 0, barrier_->state());
}

Defines persistent_defines(const Defines& defines, int local_size, const GlobalBarrier& barrier) {
  Defines d = defines;
  d.set("LOCAL_SIZE", local_size);
  return barrier.add_defines(d);
}

Defines PersistentKernel::defines() const {
  return persistent_defines(defines_, config_.local_size, *barrier_);
}

cl::Kernel PersistentKernel::sibling(const std::string& name) const {
  return ctx_->kernel(file_, name, defines());
}

cl::Event PersistentKernel::launch() {
  if (in_kernel()) barrier_->reset(ctx_->queue());
  return lockstep::launch(ctx_->queue(), kernel_, global_size(), size_t(local_size()));
}

std::pair<cl::Event, cl::Event> PersistentKernel::run_phases(
    int phases, const std::function<void(int, int)>& bind) {
  std::pair<cl::Event, cl::Event> ev;
  if (phases <= 0) return ev;
  if (in_kernel()) {
    bind(0, phases);
    ev.first = ev.second = launch();
    return ev;
  }
  for (int p = 0; p < phases; ++p) {
    bind(p, p + 1);
    ev.second = launch();
    if (p == 0) ev.first = ev.second;
  }
  return ev;
}

}  // namespace lockstep
