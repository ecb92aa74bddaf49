#!/usr/bin/env python3
"""Writes the synthetic test data of package measure (see README.md).

Python's standard library only: pickle writes the snapshots as
torch.cuda.memory._dump_snapshot does (pickle.dump of the _snapshot()
dictionary), json writes the JSON form and ART's planner-miss reports the
way ART's _encode does (sort_keys, separators "," and ":", ASCII escapes,
a final newline). No GPU was involved: every allocation is made up.

    python3 measure/testdata/gen.py            # rewrite the committed files
    python3 measure/testdata/gen.py --large N FILE
                                               # a snapshot of N alloc/free pairs, for the size test
"""

import json
import os
import pickle
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Qwen3-Next-80B-A3B defaults (docs/model.md §2): V, H, K, I = moe_intermediate_size.
V, H, K, I = 151936, 2048, 10, 512
C = 512  # head chunk rows
D = min(4096, C) * V * 2  # one chunk of BF16 logits at rows >= 512
WEIGHTS = 3 * 2**30  # a block allocated before recording began

FRAMES_HEAD = [
    {"filename": "??", "line": 0, "name": "c10::cuda::CUDACachingAllocator::malloc"},
    {"filename": "/opt/art/src/art/trainer_rank/_head.py", "line": 212, "name": "chunk_logprobs"},
    {"filename": "/opt/art/src/art/trainer_rank/_impl.py", "line": 4410, "name": "forward"},
]
FRAMES_FC2 = [
    {"filename": "/opt/megatron/core/transformer/moe/experts.py", "line": 771, "name": "forward"},
]
FRAMES_OUT = [
    {"filename": "/opt/art/src/art/trainer_rank/_outputs.py", "line": 58, "name": "logprobs"},
]


class Trace:
    """A device trace and the live set it implies, with its own running sums."""

    def __init__(self, start_us):
        self.events = []
        self.t = start_us
        self.addr = 0x7F0000000000
        self.live = {}

    def _tick(self):
        self.t += 17
        return self.t

    def alloc(self, size, frames):
        addr = self.addr
        self.addr += max(512, -(-size // 512) * 512)
        self.events.append({"action": "alloc", "addr": addr, "size": size, "stream": 0,
                            "time_us": self._tick(), "frames": frames})
        self.live[addr] = size
        return addr

    def free(self, addr, frames):
        size = self.live.pop(addr)
        for action in ("free_requested", "free_completed"):
            self.events.append({"action": action, "addr": addr, "size": size, "stream": 0,
                                "time_us": self._tick(), "frames": frames})

    def annotate(self, text):
        self.events.append({"action": "annotate", "addr": 0, "size": 0, "stream": 0,
                            "time_us": self._tick(), "user_metadata": text, "frames": []})


def segment(address, blocks):
    """One segment of blocks [(size, requested, state, frames)]."""
    out, addr = [], address
    for size, requested, state, frames in blocks:
        out.append({"size": size, "requested_size": requested, "address": addr,
                    "state": state, "frames": frames})
        addr += size
    total = addr - address
    allocated = sum(b["size"] for b in out if b["state"] == "active_allocated")
    return {"device": 0, "address": address, "total_size": total, "stream": 0,
            "segment_type": "large", "segment_pool_id": (0, 0), "allocated_size": allocated,
            "active_size": allocated, "blocks": out}


def snapshot(trace, extra_blocks=()):
    weights = segment(0x7E0000000000, [(WEIGHTS, WEIGHTS, "active_allocated", [])])
    segs = [weights]
    # What the trace leaves allocated, each block in a segment of its own at
    # the address the trace gave it.
    for addr, size in sorted(trace.live.items()) if trace else []:
        segs.append(segment(addr, [(max(512, -(-size // 512) * 512), size, "active_allocated", FRAMES_OUT)]))
    if extra_blocks:
        segs.append(segment(0x7F0000000000 + 2**40, list(extra_blocks)))
    snap = {"segments": segs, "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1}}
    if trace is not None:
        snap["device_traces"] = [trace.events]
    return snap


def head_chunk():
    """A head chunk with head_eager_workspace: logits_bf16 [D], then
    logits_fp32, shifted_fp32, exp_fp32 [2D each], and a 1,000-byte scratch
    buffer the allocator rounds to 1,024."""
    tr = Trace(1_700_000_000_000_000)
    scratch = tr.alloc(1000, FRAMES_HEAD)
    bufs = [tr.alloc(D, FRAMES_HEAD)] + [tr.alloc(2 * D, FRAMES_HEAD) for _ in range(3)]
    for a in reversed(bufs):
        tr.free(a, FRAMES_HEAD)
    tr.free(scratch, FRAMES_HEAD)
    # The trace's live set is empty at the end: the snapshot has the weights only.
    return snapshot(tr)


def fc2_stage(n=4096):
    """One MoE FC2 stage of n rows with fc2_known_storage: input [r x I x 2],
    base_out, adapter_out, combined_out [r x O x 2 each], r = n x K."""
    r = n * K
    tr = Trace(1_700_000_100_000_000)
    a = [tr.alloc(r * I * 2, FRAMES_FC2)] + [tr.alloc(r * H * 2, FRAMES_FC2) for _ in range(3)]
    for x in a:
        tr.free(x, FRAMES_FC2)
    return snapshot(tr)


def split(children=(33706, 31196)):
    """A request split into two children: each child's forward keeps its
    logprobs [n x 4] (the retained outputs, which add up) and runs an FC2
    stage of n rows; an annotate entry marks each child's start."""
    tr = Trace(1_700_000_200_000_000)
    for i, n in enumerate(children):
        tr.annotate(f"child {i} forward")
        tr.alloc(n * 4, FRAMES_OUT)
        r = n * K
        a = [tr.alloc(r * I * 2, FRAMES_FC2)] + [tr.alloc(r * H * 2, FRAMES_FC2) for _ in range(3)]
        for x in a:
            tr.free(x, FRAMES_FC2)
    return snapshot(tr)


def no_history():
    """Segments only: history recording was off. Besides the weights, two
    live blocks: 1 MiB (requested 1,048,000) and 4 KiB."""
    snap = snapshot(None, extra_blocks=[(1 << 20, 1048000, "active_allocated", []),
                                         (4096, 4096, "active_allocated", []),
                                         (8192, 8192, "inactive", [])])
    return snap


def empty_trace():
    snap = snapshot(None)
    snap["device_traces"] = [[]]
    return snap


def encode_report(record):
    return (json.dumps(record, sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n").encode()


def report(rid, *, event="estimate_miss", fmt=2, phase="forward", predicted=None, observed=None,
           children=(4096,), output_bytes=None, threshold=10.0, available=140_000_000_000):
    oom = event == "oom"
    rec = {
        "format": fmt, "kind": "art-planner-miss", "id": rid,
        "occurred_at": "2026-11-30T12:00:00.123456+00:00", "phase": phase, "oom": oom,
        "threshold_pct": threshold, "predicted_peak_bytes": predicted,
        "admission_peak_bytes": None if predicted is None else int(predicted * 1.1),
        "observed_peak_bytes": None if oom else observed,
        "partial_peak_bytes": observed if oom else None,
        "error_pct": (100 * abs(observed - predicted) / predicted
                      if not oom and observed is not None and predicted else None),
        "replay_complete": False, "incomplete_reasons": ["memory replay inputs unavailable"],
        "replay_scope": "cpu-memory-estimator; GPU execution requires checkpoint/runtime",
    }
    outs = output_bytes if output_bytes is not None else [n * 4 for n in children]
    rec["replay"] = {
        "memory_replay": {"rank": {"num_layers": 48, "hidden_size": H}, "estimates": [
            {"signature": {}, "profile": None, "arguments": {"packed_tokens": n, "output_bytes": o,
                                                               "logical_tokens": n, "gdn_segments": 1},
             "expected_required_bytes": 0, "retained_bytes": 0, "cost_components": {}, "missing_inputs": []}
            for n, o in zip(children, outs)]},
        "plan": {"packed_tokens": sum(children), "request_count": len(children)},
        "subforward_request_indices": [[i] for i in range(len(children))],
        "available_bytes": available, "safety_factor": 1.1, "rank": 0,
        "device": {"device": "cuda:0", "capability": [9, 0], "total_memory_bytes": 150754820096,
                   "torch": "2.9.0", "cuda": "12.8"},
        "model": "Qwen/Qwen3-Next-80B-A3B-Instruct",
    }
    if fmt == 2:
        rec["event"] = event
        rec["decision"] = None
        rec["failure"] = {"type": "OutOfMemoryError", "message": "CUDA out of memory"} if oom else None
    return rec


def reports():
    good = {
        # One child, forward: points. 12% and 25% over the prediction.
        "miss-forward-a.json": report("0f3c9a1e5b7d4c2a8e6f1b3d5a7c9e0f", predicted=20_000_000_000,
                                      observed=22_400_000_000, children=(4096,)),
        "miss-forward-b.json": report("1a2b3c4d5e6f708192a3b4c5d6e7f801", predicted=30_000_000_000,
                                      observed=37_500_000_000, children=(8192,), output_bytes=[1_000_000]),
        # A split plan: a comparison, not a point.
        "miss-split.json": report("2b3c4d5e6f708192a3b4c5d6e7f80912", predicted=40_000_000_000,
                                  observed=30_000_000_000, children=(33706, 31196)),
        # A caller window: a comparison, not a point. Format 1.
        "miss-caller-v1.json": report("3c4d5e6f708192a3b4c5d6e7f8091223", fmt=1, phase="forward_and_caller",
                                      predicted=50_000_000_000, observed=61_000_000_000, children=(4096,)),
        # An OOM: skipped.
        "oom.json": report("4d5e6f708192a3b4c5d6e7f809122334", event="oom", predicted=60_000_000_000,
                           observed=58_000_000_000, children=(4096,)),
    }
    bad = {}
    rec = report("5e6f708192a3b4c5d6e7f80912233445", predicted=20_000_000_000, observed=22_400_000_000)
    bad["noncanonical.json"] = (json.dumps(rec, sort_keys=True, indent=1) + "\n").encode()
    rec = report("6f708192a3b4c5d6e7f8091223344556", predicted=20_000_000_000, observed=22_400_000_000)
    rec["error_pct"] = 12.5
    bad["error-pct.json"] = encode_report(rec)
    rec = report("708192a3b4c5d6e7f809122334455667", event="oom", predicted=20_000_000_000, observed=None)
    rec["observed_peak_bytes"] = 21_000_000_000
    bad["oom-observed.json"] = encode_report(rec)
    rec = report("8192a3b4c5d6e7f80912233445566778", predicted=20_000_000_000, observed=20_100_000_000)
    bad["under-threshold.json"] = encode_report(rec)
    rec = report("92a3b4c5d6e7f8091223344556677889", predicted=20_000_000_000, observed=22_400_000_000)
    rec["unexpected"] = 1
    bad["extra-key.json"] = encode_report(rec)
    return {k: encode_report(v) for k, v in good.items()}, bad


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def large(pairs, path):
    """pairs alloc/free pairs over 200 made-up stacks of 12 frames each."""
    rnd = random.Random(1)
    stacks = [[{"filename": f"/opt/model/layers/block_{s % 48}.py", "line": rnd.randint(1, 3000),
                "name": f"forward_{i}"} for i in range(12)] for s in range(200)]
    tr = Trace(1_700_000_300_000_000)
    live = []
    for _ in range(pairs):
        if live and rnd.random() < 0.5:
            tr.free(live.pop(rnd.randrange(len(live))), stacks[rnd.randrange(200)])
        else:
            live.append(tr.alloc(rnd.randint(1, 1 << 26), stacks[rnd.randrange(200)]))
    with open(path, "wb") as f:
        pickle.dump(snapshot(tr), f)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--large":
        large(int(sys.argv[2]), sys.argv[3])
        return
    snaps = {"head": head_chunk(), "fc2": fc2_stage(), "split": split(),
             "nohistory": no_history(), "emptytrace": empty_trace()}
    for name, snap in snaps.items():
        write(os.path.join(HERE, "snapshots", name + ".pickle"), pickle.dumps(snap, protocol=4))
    for protocol in (0, 2, 5):  # the same snapshot in other pickle protocols
        write(os.path.join(HERE, "snapshots", f"head-protocol{protocol}.pickle"),
              pickle.dumps(snaps["head"], protocol=protocol))
    write(os.path.join(HERE, "snapshots", "head.json"),
          (json.dumps(snaps["head"], default=list) + "\n").encode())
    good, bad = reports()
    for name, data in good.items():
        write(os.path.join(HERE, "reports", name), data)
    for name, data in bad.items():
        write(os.path.join(HERE, "reports", "bad", name), data)


if __name__ == "__main__":
    main()
