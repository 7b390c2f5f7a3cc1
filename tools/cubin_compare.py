#!/usr/bin/env python3
"""Whether a CUDA change alters machine code, without a GPU.

The sliced and binned SpMV kernels are sensitive to how a loop is written
(docs/spmv.md, forty-fourth session: one form of a split compiled other kernels
differently and lost 4-9%). Before spending device time, build the translation
unit as an sm_90 cubin for each version of the code and compare the kernels'
machine code (.text sections), with the anonymous namespace's per-build hash
normalized:

  python3 tools/cubin_compare.py build build sparse/cuda/spmv_binned.cu /tmp/new.cubin
  git stash; python3 tools/cubin_compare.py build build sparse/cuda/spmv_binned.cu /tmp/old.cubin; git stash pop
  python3 tools/cubin_compare.py compare /tmp/old.cubin /tmp/new.cubin --filter sliced_rows_kernel

`build` reuses the configured build directory's (ninja) compile command for the
source's object, compiling to a cubin for sm_90 instead. `compare` lists every
kernel whose code differs and counts the identical ones (exit status 1 if any
differs, 0 if none).
"""
import argparse
import re
import shlex
import struct
import subprocess
import sys

ANON = re.compile(r"_GLOBAL__N__\w+?_cu_[0-9a-f]+")


def text_sections(path):
    """{normalized kernel name: machine code bytes} of a 64-bit little-endian ELF cubin."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF file (a cubin from nvcc -cubin)")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = []
    for i in range(shnum):
        name, _type, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        sections.append((name, offset, size))
    strings = sections[shstrndx][1]
    out = {}
    for name, offset, size in sections:
        start = strings + name
        label = data[start:data.index(b"\0", start)].decode()
        if label.startswith(".text."):
            out[ANON.sub("ANON", label[len(".text."):])] = data[offset:offset + size]
    return out


def compare(a_path, b_path, pattern):
    a, b = text_sections(a_path), text_sections(b_path)
    same = differ = 0
    for kernel in sorted(set(a) | set(b)):
        if pattern not in kernel:
            continue
        if a.get(kernel) == b.get(kernel):
            same += 1
        else:
            differ += 1
            sizes = f"{len(a[kernel]) if kernel in a else 'absent'} -> {len(b[kernel]) if kernel in b else 'absent'}"
            print(f"differs: {kernel} ({sizes} bytes)")
    print(f"{same} identical, {differ} different" + (f" (kernels containing '{pattern}')" if pattern else ""))
    return 1 if differ else 0


def build(build_dir, source, cubin):
    """Compile `source` as its object's ninja command does, but to an sm_90 cubin."""
    target = f"CMakeFiles/saga.dir/{source}.o"
    cmd = subprocess.run(["ninja", "-C", build_dir, "-t", "commands", target], capture_output=True, text=True)
    lines = [l for l in cmd.stdout.splitlines() if l.strip()]
    if cmd.returncode != 0 or not lines:
        sys.exit(f"no ninja command for {target} in {build_dir}: {cmd.stderr.strip()}")
    args = shlex.split(lines[-1])
    out, skip = [], 0
    for arg in args:
        if skip:
            skip -= 1
            continue
        if arg == "-MD":
            continue
        if arg in ("-MT", "-MF"):
            skip = 1
            continue
        if arg.startswith("--generate-code="):
            continue
        if arg == "-c":
            out.append("-cubin")
            continue
        if arg == "-o":
            out += ["-o", cubin]
            skip = 1
            continue
        out.append(arg)
    out.insert(1, "-arch=sm_90")
    done = subprocess.run(out, cwd=build_dir)
    if done.returncode != 0:
        sys.exit(done.returncode)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("build", help="compile one CUDA source of the build to an sm_90 cubin")
    b.add_argument("build_dir")
    b.add_argument("source", help="the source's path in the repository, e.g. sparse/cuda/spmv_binned.cu")
    b.add_argument("cubin")
    c = sub.add_parser("compare", help="compare the kernels' machine code of two cubins")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--filter", default="", help="only kernels whose (mangled) name contains this")
    args = ap.parse_args()
    if args.what == "build":
        build(args.build_dir, args.source, args.cubin)
        return 0
    return compare(args.a, args.b, args.filter)


if __name__ == "__main__":
    sys.exit(main())
