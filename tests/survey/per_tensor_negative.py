import triton
import triton.language as tl


@triton.jit
def add_one(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + 1, mask=offs < n)


def sweep_blocks(x):
    for block in [256, 512, 1024]:
        add_one[(triton.cdiv(x.numel(), block),)](x, x.numel(), BLOCK=block)


def repeat(x, times):
    for _ in range(times):
        add_one[(4,)](x, x.numel(), BLOCK=1024)


def radix_passes(keys, tmp):
    # Each pass reads what the previous wrote: not a list of independent tensors.
    src, dst = keys, tmp
    for shift in range(0, 32, 8):
        add_one[(4,)](src, keys.numel(), BLOCK=1024)
        src, dst = dst, src


def chunked(x, chunk):
    # Deliberate chunks of one tensor (a grid or memory limit), by offset.
    for start in range(0, x.numel(), chunk):
        add_one[(4,)](x[start:start + chunk], chunk, BLOCK=1024)


def accumulate(tensors, out):
    for t in tensors:
        add_one[(4,)](out, t.numel(), BLOCK=1024)
        out = out.cumsum(0)  # the next launch reads this one's result


def chunks(n, size):
    for off in range(0, n, size):
        yield off, min(size, n - off)


def chunked_rows(logits, out):
    # A chunker's (offset, length) pairs over one tensor: deliberate, not a tensor list.
    for row_off, row_len in chunks(logits.shape[0], 65535):
        add_one[(row_len,)](logits[row_off:row_off + row_len], row_len, BLOCK=1024)
