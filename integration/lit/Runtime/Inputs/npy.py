"""Writes a .npy file of zeros without NumPy: npy.py PATH TYPE SHAPE
(TYPE f4, f8, f2, i4, ...; SHAPE like 64x32)."""
import struct
import sys

path, kind, shape = sys.argv[1], sys.argv[2], sys.argv[3]
dims = [int(d) for d in shape.split("x")]
count = 1
for d in dims:
    count *= d
header = "{'descr': '<%s', 'fortran_order': False, 'shape': (%s), }" % (
    kind, "".join("%d," % d for d in dims))
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(b"\0" * (count * int(kind[1:])))
