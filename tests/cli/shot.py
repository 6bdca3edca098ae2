"""Screenshots of charts, as the chart tests read them.

The tests render a chart (an SVG of iorig plot, or the HTML report) with
headless Chromium and read the picture here: a PNG decoded with zlib
alone (Chromium writes 8-bit RGB or RGBA), the colours of what a chart
draws told apart from the white page, and the frame gnuplot draws
around the plot found as the long dark lines of the picture.

    python3 shot.py PAGE.png      prints the size and the frame found
    python3 shot.py split PAGE.png H OUT.png...
                                  cuts PAGE.png into boxes H pixels high,
                                  top to bottom, one OUT.png each
"""
import struct
import sys
import zlib


class Shot:
    """A decoded PNG: width w, height h, px(x, y) -> (r, g, b)."""

    def __init__(self, path):
        b = open(path, "rb").read()
        if b[:8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError("%s: not a PNG" % path)
        pos, idat, hdr = 8, b"", None
        while pos < len(b):
            n, kind = struct.unpack(">I4s", b[pos:pos + 8])
            data = b[pos + 8:pos + 8 + n]
            if kind == b"IHDR":
                hdr = struct.unpack(">IIBBBBB", data)
            elif kind == b"IDAT":
                idat += data
            pos += 12 + n
        self.w, self.h, depth, ctype = hdr[:4]
        if depth != 8 or ctype not in (2, 6) or hdr[6]:
            raise ValueError("%s: PNG of depth %d, colour type %d" %
                             (path, depth, ctype))
        self.bpp = 3 if ctype == 2 else 4
        self.rows = self._unfilter(zlib.decompress(idat))

    def _unfilter(self, raw):
        bpp, stride = self.bpp, self.w * self.bpp
        prev, rows, i = bytearray(stride), [], 0
        # "Up" (most rows) with whole-row integers: bytewise x + y mod
        # 256 is ((x & 7f..) + (y & 7f..)) ^ ((x ^ y) & 80..)
        lo = int.from_bytes(b"\x7f" * stride, "big")
        hi = int.from_bytes(b"\x80" * stride, "big")
        for _ in range(self.h):
            f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            if f in (0, 2):
                if f == 2:
                    x = int.from_bytes(line, "big")
                    y = int.from_bytes(prev, "big")
                    line = bytearray((((x & lo) + (y & lo)) ^
                                      ((x ^ y) & hi)).to_bytes(stride, "big"))
                rows.append(bytes(line))
                prev = line
                continue
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                up = prev[x]
                if f == 1:
                    line[x] = (line[x] + a) & 255
                elif f == 2:
                    line[x] = (line[x] + up) & 255
                elif f == 3:
                    line[x] = (line[x] + (a + up) // 2) & 255
                elif f == 4:
                    c = prev[x - bpp] if x >= bpp else 0
                    p = a + up - c
                    pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else
                                          up if pb <= pc else c)) & 255
            rows.append(bytes(line))
            prev = line
        return rows

    def px(self, x, y):
        i = x * self.bpp
        r = self.rows[y]
        return r[i], r[i + 1], r[i + 2]

    def pixels(self, box=None):
        """(x, y, rgb) of every pixel of box (x0, y0, x1, y1), ends
        excluded, that is not white; the whole picture by default."""
        x0, y0, x1, y1 = box or (0, 0, self.w, self.h)
        x0, x1 = max(0, x0), min(self.w, x1)
        bpp = self.bpp
        white = b"\xff" * bpp
        for y in range(max(0, y0), min(self.h, y1)):
            r = self.rows[y]
            if r[x0 * bpp:x1 * bpp].count(white) == x1 - x0 and bpp == 3:
                continue
            for x in range(x0, x1):
                i = x * bpp
                p = (r[i], r[i + 1], r[i + 2])
                if p != (255, 255, 255):
                    yield x, y, p


def split(path, h, outs):
    """Writes the boxes of path, h rows each from the top, to outs: the
    charts of one screenshot of a page that stacks them (tests/cli/lib.sh
    shots), each as if Chromium had drawn it alone."""
    s = Shot(path)
    if s.h < h * len(outs):
        raise ValueError("%s: %d rows, not %d boxes of %d" %
                         (path, s.h, len(outs), h))
    ctype = 2 if s.bpp == 3 else 6
    for k, out in enumerate(outs):
        rows = s.rows[k * h:(k + 1) * h]
        raw = b"".join(b"\0" + r for r in rows)

        def chunk(kind, data):
            return (struct.pack(">I", len(data)) + kind + data +
                    struct.pack(">I", zlib.crc32(kind + data)))
        with open(out, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" +
                    chunk(b"IHDR", struct.pack(">IIBBBBB", s.w, h, 8, ctype,
                                               0, 0, 0)) +
                    chunk(b"IDAT", zlib.compress(raw, 1)) +
                    chunk(b"IEND", b""))


def rgb(hexcolour):
    """'#4060c0' -> (64, 96, 192)"""
    h = hexcolour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def tint(p, c):
    """How far pixel p lies from white toward colour c: 0 white, 1 c
    itself (a bar drawn half transparent is 0.5, the edge of a line
    smoothed against white is in between); -1 when p is no mix of white
    and c (another colour, or c over something else)."""
    a = [(255 - pc) / (255 - cc) for pc, cc in zip(p, c) if cc < 235]
    if any(pc < 215 for pc, cc in zip(p, c) if cc >= 235):
        return -1
    if not a or max(a) - min(a) > 0.1:
        return -1
    return sum(a) / len(a)


def find(shot, colour, least=0.3, box=None):
    """The pixels (x, y) of colour (as tint), within box."""
    c = rgb(colour)
    return [(x, y) for x, y, p in shot.pixels(box) if tint(p, c) >= least]


def coloured(shot, box=None):
    """The pixels (x, y) of box that are neither white nor grey: what a
    chart draws of its data (lines, points, bars), not its frame, grid
    or text."""
    return [(x, y) for x, y, p in shot.pixels(box) if max(p) - min(p) > 60]


def bbox(points):
    """(x0, y0, x1, y1) of points, ends included; None for none."""
    if not points:
        return None
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def dark(p):
    """Black or grey: the frame (smoothed, a line between two pixel rows
    is two grey rows)."""
    return max(p) < 170 and max(p) - min(p) < 30


# Bytes below 170 map to 1: a dark pixel has all three channels there.
_LOW = bytes(1 if v < 170 else 0 for v in range(256))


def _dark_xs(shot, y, x0, x1):
    """The x of row y within [x0, x1) whose pixel is dark, ascending. The
    pixels whose three channels are all below 170 (the only ones that may
    be dark) are found a row at a time in C (bytes.translate, integer
    AND); dark() decides each of them."""
    r, bpp = shot.rows[y], shot.bpp
    n = x1 - x0
    m = -1
    for c in range(3):
        ch = int.from_bytes(r[c::bpp][x0:x1].translate(_LOW), "big")
        m = ch if m < 0 else m & ch
    cand = m.to_bytes(n, "big")
    i = cand.find(1)
    while i >= 0:
        if dark(shot.px(x0 + i, y)):
            yield x0 + i
        i = cand.find(1, i + 1)


def _longest(shot, y, x0, x1):
    """The longest run of dark pixels of row y within [x0, x1): (start,
    end) with end excluded; the first of the longest."""
    if not 0 <= x0 < x1 <= shot.w:
        return _longest_slow(shot, y, x0, x1)
    best, start, last = (0, 0), None, None
    for x in _dark_xs(shot, y, x0, x1):
        if start is not None and x == last + 1:
            last = x
            continue
        if start is not None and last + 1 - start > best[1] - best[0]:
            best = (start, last + 1)
        start = last = x
    if start is not None and last + 1 - start > best[1] - best[0]:
        best = (start, last + 1)
    return best


def _longest_slow(shot, y, x0, x1):
    """_longest a pixel at a time (a box past the picture's sides)."""
    best, start = (0, 0), None
    for x in range(x0, x1 + 1):
        if x < x1 and dark(shot.px(x, y)):
            start = x if start is None else start
            continue
        if start is not None and x - start > best[1] - best[0]:
            best = (start, x)
        start = None
    return best


def frame(shot, box=None):
    """The plot's frame (left, top, right, bottom) within box: its top
    and bottom the innermost rows of the dark lines across at least half
    of box, its sides the ends of the bottom line (a percentile's line
    drawn over a side leaves the bottom line whole)."""
    x0, y0, x1, y1 = box or (0, 0, shot.w, shot.h)
    rows = {}
    for y in range(y0, y1):
        a, b = _longest(shot, y, x0, x1)
        if b - a >= (x1 - x0) // 2:
            rows[y] = (a, b)
    if not rows:
        return None
    top, bottom = min(rows), max(rows)
    while top + 1 in rows:
        top += 1
    while bottom - 1 in rows:
        bottom -= 1
    left, right = rows[bottom]
    return left, top, right - 1, bottom


def overlap(a, b):
    """Whether boxes a and b (ends included) share a pixel."""
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])


if __name__ == "__main__":
    if sys.argv[1] == "split":
        split(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
        sys.exit(0)
    s = Shot(sys.argv[1])
    print("%dx%d frame %s" % (s.w, s.h, frame(s)))
