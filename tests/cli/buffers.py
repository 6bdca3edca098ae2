# What a file's bytes are to a compressing or deduplicating device, for
# the buffer-contents tests (110-114): zlib level 1 (what zram, btrfs and
# ZFS compressors are near) over pieces of PIECE bytes, and the share of
# BS-byte blocks that repeat an earlier block (SHA-1 of each).
# Prints "comp=C whole=W dup=D" in percent: C the compressed size of the
# pieces over their size, W of the whole file in one stream, D the
# duplicate blocks over all blocks.
import hashlib
import sys
import zlib

path, bs, piece = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, 'rb').read()
n = len(data) // bs
data = data[:n * bs]
comp = sum(len(zlib.compress(data[i:i + piece], 1))
           for i in range(0, len(data), piece))
seen = set()
dup = 0
for i in range(n):
    h = hashlib.sha1(data[i * bs:(i + 1) * bs]).digest()
    if h in seen:
        dup += 1
    else:
        seen.add(h)
print("comp=%.2f whole=%.2f dup=%.2f" % (100.0 * comp / len(data),
      100.0 * len(zlib.compress(data, 1)) / len(data), 100.0 * dup / n))
