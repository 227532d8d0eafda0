"""Writes synthetic interleaved timing samples for the A/B gate tests."""
import json
import random
import sys

out = sys.argv[1]
rng = random.Random(7)
rounds = 30


def write(name, samples, order=None):
    doc = {"samples_ms": samples}
    if order is not None:
        doc["round_order"] = order
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(doc, f)


# Two arms whose spreads overlap: B is 0.3% slower inside 3% noise.
a = [1.0 * (1 + rng.gauss(0, 0.03)) for _ in range(rounds)]
b = [1.003 * (1 + rng.gauss(0, 0.03)) for _ in range(rounds)]
write("overlap", {"A": a, "B": b})

# A clear difference, but the control copy of B disagrees with B.
a = [1.0 * (1 + rng.gauss(0, 0.002)) for _ in range(rounds)]
b = [0.8 * (1 + rng.gauss(0, 0.002)) for _ in range(rounds)]
c = [0.9 * (1 + rng.gauss(0, 0.002)) for _ in range(rounds)]
write("control", {"A": a, "B": b, "B#control": c})

# One binary: whichever arm runs second in a round is 10% slower.
order, a, b = [], [], []
for r in range(rounds):
    first = ["A", "B"] if r % 2 == 0 else ["B", "A"]
    order.append(first)
    t = {first[0]: 1.0 * (1 + rng.gauss(0, 0.002)), first[1]: 1.1 * (1 + rng.gauss(0, 0.002))}
    a.append(t["A"])
    b.append(t["B"])
write("position", {"A": a, "B": b}, order)

# A NaN sample (JSON null, as Python's json writes NaN for strict readers).
a = [1.0] * rounds
b = [1.1] * rounds
b[3] = None
write("nan", {"A": a, "B": b})
