// tma-store-wait: `ttng.async_tma_store_wait` (Gluon's tma.store_wait) waits
// until the TMA store has read its shared-memory source
// (cp.async.bulk.wait_group.read), not until the global write is done. A
// kernel that reads the stored range back afterwards may see old values.
#include "LintContext.h"

#include <fmt/format.h>

namespace tilexform::lint {

namespace {

/// The global memory a descriptor or pointer addresses: the base pointer of
/// `tt.make_tensor_descriptor`, through pointer arithmetic and broadcasts,
/// partition captures and loop arguments.
ir::Value *globalBase(ir::Value *v) {
  for (unsigned step = 0; v && step < 256; ++step) {
    ir::Operation *d = v->definingOp;
    if (!d) {
      ir::Value *in = bufferRoot(v); // partition captures and loop inits
      if (in == v)
        return v;
      v = in;
      continue;
    }
    if (d->name == "tt.make_tensor_descriptor" && d->operand("base"))
      v = d->operand("base");
    else if (d->name == "tt.addptr" && d->operand("ptr"))
      v = d->operand("ptr");
    else if ((d->name == "tt.splat" || d->name == "tt.broadcast" || d->name == "tt.expand_dims" ||
              d->name == "tt.reshape" || d->name == "ttg.convert_layout") &&
             d->operand("src"))
      v = d->operand("src");
    else
      return v;
  }
  return v;
}

bool isTmaStore(const ir::Operation *o) {
  return o->name == "ttng.async_tma_copy_local_to_global" || o->name == "ttng.async_tma_reduce" ||
         o->name == "ttng.async_tma_scatter";
}

bool readsBack(const ir::Operation *o, ir::Value *base) {
  if (o->name == "ttng.async_tma_copy_global_to_local" || o->name == "ttng.async_tma_gather" ||
      o->name == "tt.descriptor_load" || o->name == "tt.descriptor_gather")
    return o->operand("desc") && globalBase(o->operand("desc")) == base;
  if (o->name == "tt.load" || o->name == "amdg.buffer_load")
    return o->operand("ptr") && globalBase(o->operand("ptr")) == base;
  return false;
}

} // namespace

void checkTmaStoreWait(LintContext &ctx) {
  for (const ir::Operation *store : allOps(ctx.module)) {
    if (!isTmaStore(store) || !store->operand("desc"))
      continue;
    ir::Value *base = globalBase(store->operand("desc"));
    std::vector<const ir::Operation *> waits;
    const ir::Operation *unwaited = nullptr;
    if (!walkForward(store, [&](const ir::Operation *o) {
          if (!o)
            return Walk::Continue;
          if (o->name == "ttng.async_tma_store_wait") {
            waits.push_back(o);
            return Walk::Stop;
          }
          if (readsBack(o, base)) {
            unwaited = unwaited ? unwaited : o;
            return Walk::Stop;
          }
          return Walk::Continue;
        }))
      ctx.walkCutShort = true;
    if (unwaited)
      ctx.add(Rule::TmaStoreWait, unwaited,
              fmt::format("{} reads {} back after the TMA store at line {} with no wait at all: "
                          "the store may not have landed",
                          unwaited->name, base->name, store->pos.line),
              "do not read back what the kernel stores through TMA; keep the tile in registers "
              "or shared memory, or read it in a later kernel");
    for (const ir::Operation *w : waits) {
      const ir::Operation *reader = nullptr;
      if (!walkForward(w, [&](const ir::Operation *o) {
            if (o && readsBack(o, base)) {
              reader = o;
              return Walk::Stop;
            }
            return Walk::Continue;
          }))
        ctx.walkCutShort = true;
      if (reader)
        ctx.add(Rule::TmaStoreWait, w,
                fmt::format("this store_wait waits only until the TMA store at line {} has read "
                            "shared memory, not until its global write is visible, and {} at "
                            "line {} reads the stored range ({}) back",
                            store->pos.line, reader->name, reader->pos.line, base->name),
                "do not read back what the kernel stores through TMA; keep the tile in "
                "registers or shared memory, or read it in a later kernel");
    }
  }
}

} // namespace tilexform::lint
