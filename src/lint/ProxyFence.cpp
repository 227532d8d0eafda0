// proxy-fence: shared memory written through the generic proxy
// (`ttg.local_store`, `ttg.local_alloc` of a value) and then read or written
// by the async proxy (TMA, wgmma, tcgen05) needs `ttng.fence_async_shared`
// between the two on every path; memory the async proxy wrote (a TMA load)
// and the generic proxy then reads needs the fence or the mbarrier wait that
// completes the copy. Across `ttg.warp_specialize` partitions the writer
// must fence before it signals the other partition.
#include "LintContext.h"

#include <fmt/format.h>

#include <map>

namespace tilexform::lint {

namespace {

enum class Access { GenericWrite, GenericRead, AsyncRead, AsyncWrite };

struct MemAccess {
  ir::Value *root;
  Access kind;
};

bool inSharedMemory(const ir::Value *v) {
  auto t = v ? mlir::dyn_cast_or_null<ir::TritonType>(v->type) : ir::TritonType();
  if (!t || t.kind() != ir::TritonTypeKind::MemDesc)
    return false;
  std::string space = t.info().memorySpace ? ir::attrText(t.info().memorySpace) : "";
  return space.find("tensor_memory") == std::string::npos;
}

void addIfShared(std::vector<MemAccess> &out, ir::Value *v, Access kind) {
  if (inSharedMemory(v))
    out.push_back({bufferRoot(v), kind});
}

std::vector<MemAccess> accessesOf(const ir::Operation *op) {
  std::vector<MemAccess> out;
  const std::string &n = op->name;
  if (n == "ttg.local_alloc" && !op->operands.empty() && !op->results.empty())
    addIfShared(out, op->results[0], Access::GenericWrite);
  else if (n == "ttg.local_store")
    addIfShared(out, op->operand("dst"), Access::GenericWrite);
  else if (n == "ttg.local_load")
    addIfShared(out, op->operand("src"), Access::GenericRead);
  else if (n == "ttng.warp_group_dot" || n == "ttng.tc_gen5_mma" ||
           n == "ttng.tc_gen5_mma_scaled") {
    addIfShared(out, op->operand("a"), Access::AsyncRead);
    addIfShared(out, op->operand("b"), Access::AsyncRead);
  } else if (n == "ttng.async_tma_copy_local_to_global" || n == "ttng.async_tma_reduce" ||
             n == "ttng.async_tma_scatter" || n == "ttng.tmem_copy")
    addIfShared(out, op->operand("src"), Access::AsyncRead);
  else if (n == "ttng.async_tma_copy_global_to_local" || n == "ttng.async_tma_gather")
    addIfShared(out, op->operand("result"), Access::AsyncWrite);
  return out;
}

bool isFence(const ir::Operation *op) { return op->name == "ttng.fence_async_shared"; }

/// Ops after which an async access has completed for this thread: the
/// mbarrier wait of a TMA load or an MMA, the waits of wgmma and TMA stores.
bool completesAsync(const ir::Operation *op) {
  return op->name == "ttng.wait_barrier" || op->name == "ttng.warp_group_dot_wait" ||
         op->name == "ttng.async_tma_store_wait";
}

bool isSignal(const ir::Operation *op) {
  return op->name == "ttng.arrive_barrier" || op->name == "ttng.tc_gen5_commit" ||
         op->name == "ttng.barrier_expect";
}

std::string where(const ir::Operation *op) {
  return fmt::format("{} at line {}", op->name, op->pos.line);
}

const char *kFenceFix = "call fence_async_shared() (ttng.fence_async_shared) after the "
                        "shared-memory store and before the async-proxy op";

} // namespace

void checkProxyFence(LintContext &ctx) {
  if (ctx.amd())
    return; // the async proxy is NVIDIA's (sm_90 and later)
  auto ops = allOps(ctx.module);
  // Roots with async accesses, by warp_specialize op and region.
  struct AsyncUse {
    const ir::Operation *op;
    std::optional<PartitionPlace> place;
  };
  std::map<ir::Value *, std::vector<AsyncUse>> asyncUses;
  for (const ir::Operation *op : ops)
    for (const MemAccess &a : accessesOf(op))
      if (a.kind == Access::AsyncRead || a.kind == Access::AsyncWrite)
        asyncUses[a.root].push_back({op, partitionOf(op)});
  if (asyncUses.empty())
    return;

  for (const ir::Operation *op : ops) {
    for (const MemAccess &a : accessesOf(op)) {
      if (!asyncUses.count(a.root))
        continue;
      std::string buffer = a.root->name;
      if (a.kind == Access::AsyncRead || a.kind == Access::AsyncWrite) {
        // A generic write before this async access with no fence between.
        const ir::Operation *writer = nullptr;
        auto visit = [&](const ir::Operation *o) {
          if (isFence(o))
            return Walk::Stop;
          for (const MemAccess &b : accessesOf(o))
            if (b.root == a.root) {
              if (b.kind == Access::GenericWrite && !writer)
                writer = o;
              if (b.kind != Access::GenericRead)
                return Walk::Stop;
            }
          return Walk::Continue;
        };
        if (!walkBackward(op, visit))
          ctx.walkCutShort = true;
        // In a partition, what ran before the warp_specialize op came first.
        auto place = partitionOf(op);
        if (!writer && place && place->region > 0 && !walkBackward(place->op, visit))
          ctx.walkCutShort = true;
        if (writer)
          ctx.add(Rule::ProxyFence, op,
                  fmt::format("{} {} {} through the async proxy after the generic-proxy write "
                              "({}) with no ttng.fence_async_shared between them",
                              op->name, a.kind == Access::AsyncRead ? "reads" : "overwrites",
                              buffer, where(writer)),
                  kFenceFix);
        continue;
      }
      // A generic access after an async write (a TMA load) with neither a
      // fence nor the mbarrier wait that completes it between them.
      const ir::Operation *asyncWriter = nullptr;
      if (!walkBackward(op, [&](const ir::Operation *o) {
            if (isFence(o) || completesAsync(o))
              return Walk::Stop;
            for (const MemAccess &b : accessesOf(o))
              if (b.root == a.root) {
                if (b.kind == Access::AsyncWrite)
                  asyncWriter = o;
                return Walk::Stop;
              }
            return Walk::Continue;
          }))
        ctx.walkCutShort = true;
      if (asyncWriter)
        ctx.add(Rule::ProxyFence, op,
                fmt::format("{} {} {} after the async-proxy write ({}) with neither the mbarrier "
                            "wait that completes it nor a ttng.fence_async_shared between them",
                            op->name, a.kind == Access::GenericRead ? "reads" : "writes", buffer,
                            where(asyncWriter)),
                "wait on the copy's mbarrier (mbarrier.wait(bar, phase)) before touching the "
                "buffer");
      // Across partitions: a generic write whose buffer another region of the
      // same warp_specialize reads through the async proxy must be fenced
      // before this partition signals (or ends).
      auto place = partitionOf(op);
      if (a.kind != Access::GenericWrite || !place)
        continue;
      const ir::Operation *reader = nullptr;
      for (const AsyncUse &u : asyncUses[a.root])
        if (u.place && u.place->op == place->op && u.place->region != place->region)
          reader = u.op;
      if (!reader)
        continue;
      const ir::Operation *unfenced = nullptr;
      bool reachedEnd = false;
      if (!walkForward(op, [&](const ir::Operation *o) {
            if (!o) {
              reachedEnd = true;
              return Walk::Stop;
            }
            if (isFence(o))
              return Walk::Stop;
            if (isSignal(o)) {
              if (!unfenced)
                unfenced = o;
              return Walk::Stop;
            }
            return Walk::Continue;
          }))
        ctx.walkCutShort = true;
      if (unfenced || reachedEnd)
        ctx.add(
            Rule::ProxyFence, op,
            fmt::format("{} writes {}, which another partition reads through the async proxy "
                        "({}), and {} with no ttng.fence_async_shared after the write",
                        op->name, buffer, where(reader),
                        unfenced ? "signals it (" + where(unfenced) + ")" : "the partition ends"),
            "call fence_async_shared() after the store, before the mbarrier arrive that "
            "hands the buffer to the other partition");
    }
  }
}

} // namespace tilexform::lint
