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
differs, 0 if none). `regs A [B]` lists each kernel's registers a thread (from
the cubin's .nv.info, EIATTR_REGCOUNT), and with B only the kernels whose count
differs: a count past 32 leaves fewer than 8 CTAs of 256 threads an SM.

  python3 tools/cubin_compare.py regs /tmp/old.cubin /tmp/new.cubin --filter lane_rows_kernel
"""
import argparse
import re
import shlex
import struct
import subprocess
import sys

ANON = re.compile(r"_GLOBAL__N__\w+?_cu_[0-9a-f]+")


def read_cubin(path):
    """The bytes of a 64-bit ELF file (a cubin), or exit naming the file."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF file (a cubin from nvcc -cubin)")
    return data


def sections(data):
    """(name, offset, size, link) of each section of a 64-bit little-endian ELF."""
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    rows = [struct.unpack_from("<IIQQQQI", data, shoff + i * shentsize) for i in range(shnum)]
    strings = rows[shstrndx][4]

    def label(offset):
        start = strings + offset
        return data[start:data.index(b"\0", start)].decode()

    return [(label(r[0]), r[4], r[5], r[6]) for r in rows]


def text_sections(path):
    """{normalized kernel name: machine code bytes} of a cubin."""
    data = read_cubin(path)
    return {ANON.sub("ANON", label[len(".text."):]): data[offset:offset + size]
            for label, offset, size, _link in sections(data) if label.startswith(".text.")}


def registers(path):
    """{normalized kernel name: registers a thread} of a cubin."""
    data = read_cubin(path)
    table = sections(data)
    _, offset, size, link = next(s for s in table if s[0] == ".symtab")
    strtab = table[link][1]
    symbols = []
    for j in range(size // 24):  # Elf64_Sym entries; st_name first
        name = struct.unpack_from("<I", data, offset + j * 24)[0]
        symbols.append(data[strtab + name:data.index(b"\0", strtab + name)].decode())
    out = {}
    for label, offset, size, _link in table:
        if not label.startswith(".nv.info"):
            continue
        p = offset
        while p < offset + size:  # attributes: format byte, attribute byte, then the value
            fmt, attr = data[p], data[p + 1]
            if fmt == 4:  # EIFMT_SVAL: a 16-bit size, then that many bytes
                length = struct.unpack_from("<H", data, p + 2)[0]
                if attr == 0x2F:  # EIATTR_REGCOUNT: symbol index, count
                    index, count = struct.unpack_from("<II", data, p + 4)
                    out[ANON.sub("ANON", symbols[index])] = count
                p += 4 + length
            elif fmt == 3:  # EIFMT_HVAL: a 16-bit value
                p += 4
            elif fmt == 2:  # EIFMT_BVAL: a byte
                p += 3
            elif fmt == 1:  # EIFMT_NVAL: none
                p += 2
            else:
                break
    return out


def regs(a_path, b_path, pattern):
    a = registers(a_path)
    if not b_path:
        for kernel, count in sorted(a.items()):
            if pattern in kernel:
                print(f"{count:4d}  {kernel}")
        return 0
    b = registers(b_path)
    differ = 0
    for kernel in sorted(set(a) | set(b)):
        if pattern in kernel and a.get(kernel) != b.get(kernel):
            differ += 1
            print(f"{a.get(kernel, '-')!s:>4} -> {b.get(kernel, '-')!s:<4} {kernel}")
    print(f"{differ} kernels' register counts differ" + (f" (kernels containing '{pattern}')" if pattern else ""))
    return 1 if differ else 0


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
    r = sub.add_parser("regs", help="registers a thread of each kernel, or where two cubins differ")
    r.add_argument("a")
    r.add_argument("b", nargs="?")
    r.add_argument("--filter", default="", help="only kernels whose (mangled) name contains this")
    args = ap.parse_args()
    if args.what == "build":
        build(args.build_dir, args.source, args.cubin)
        return 0
    if args.what == "regs":
        return regs(args.a, args.b, args.filter)
    return compare(args.a, args.b, args.filter)


if __name__ == "__main__":
    sys.exit(main())
