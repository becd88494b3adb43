"""The one mutator of the process-level fuzzers (mutate-projects.py, mutate-repositories.py): a
few bit flips, inserted tokens, cuts, truncations and repeats of a file's own bytes."""

def mutate(data, rng, tokens):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data: data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1: data[at:at] = rng.choice(tokens)
        elif op == 2 and data: del data[at:at + rng.randint(1, 64)]
        elif op == 3: data = data[:at]
        else:
            a = rng.randrange(len(data) + 1); data[at:at] = data[a:a + rng.randint(1, 256)] * rng.randint(1, 8)
    return bytes(data)
