#!/usr/bin/env python3
# Written for PushPreview by its research pass (notes/captures/measure.py, 2026-12-04); the truth harness
# (scripts/chrome-truth.py) runs it on our own PNGs, so captures and mock-ups are measured by one code path.
"""Measure iOS notification chrome in a picture (a real capture or one of PushPreview's own PNGs).

    python3 measure.py IMAGE --scale 3 --spec SPEC.json [--out OUT.json] [--debug DEBUG.png]

Everything is reported in points (pixels / scale) in the image's own coordinates, with an error
estimate.  The spec says what to look for and roughly where (hints in points, by eye, ±5 pt is
enough); the code refines every edge by itself, so the same spec works on a capture and on our PNG
of the same notification.

Spec (JSON):
  {
    "full_width": true,              # the image spans the whole screen width (insets are meaningful)
    "items": [
      {"name": "platter", "kind": "platter", "hint": [x0, y0, x1, y1],
       "edges": "ltrb",               # which edges exist in the picture (a crop can lose some)
       "corner": "tl"},               # which corner to fit (tl, tr, bl, br) or null
      {"name": "icon", "kind": "blob", "within": [x0, y0, x1, y1], "ref": "platter"},
      {"name": "text", "kind": "text", "within": [x0, y0, x1, y1], "ref": "platter",
       "time_within": [x0, y0, x1, y1]},
      {"name": "menu", "kind": "platter", "hint": [...], "corner": "tl"},
      {"name": "sep", "kind": "hlines", "within": [...], "ref": "menu"}
    ],
    "derive": true                   # add the usual derived numbers (insets, gaps) when possible
  }

Methods
  * Straight edges: 9 scanlines across the edge (away from the corners); along each, the strongest
    colour step within +-search pt of the hint, refined to the half-way crossing between the levels
    just outside and just inside the step (sub-pixel, linear interpolation).  The edge is the median
    of the scanlines; the error is max(half a pixel, the scanlines' spread, a quarter of the
    10-90 % transition width), in points.
  * Corners: template fit.  Each pixel of the corner's square gets a membership (0 = background
    just outside the corner, 1 = platter fill) by projecting its colour between the two; this map
    is compared with the anti-aliased coverage of (a) a circular arc and (b) the continuous
    ("squircle") corner of UIKit's _continuousCornerRadius / SwiftUI .continuous -- the widely
    published cubic-Bezier reconstruction, whose curve starts 1.52866 r from the corner -- placed
    on the measured straight edges, r scanned coarse (0.5 pt) then fine (0.05 pt).  Only pixels
    near the outline count.  Both radii and RMS residuals are reported; the smaller residual names
    the shape.  On synthetic corners (selftest/) the right model has RMS ~0.02 and the wrong one
    ~0.08, and r comes back within 0.15 pt.
  * Blobs (icons, avatars, thumbnails): pixels whose colour differs from the reference platter fill
    by more than a threshold, connected, bounding box.
  * Text: ink = pixels differing from the local fill; left/right extent, line bands from the row
    profile; for each band the top of the ink (cap/ascender top), the baseline (the lowest row whose
    ink count is still >= 35 % of the band's peak, so descenders are ignored) and the x-height line is
    not attempted.  Baseline-to-baseline distances give the line pitch.
"""
import argparse
import json
import math
import sys

import numpy as np
from PIL import Image

# ---------------------------------------------------------------- continuous corner model
# Unit corner (radius 1) at the top-left, edges along +x (top edge) and +y (left edge).
# Three cubic segments from (1.52866483, 0) to (0, 1.52866483).
_C = [
    ((1.52866483, 0.0), (1.08849296, 0.0), (0.86840694, 0.0), (0.63149399, 0.07491100)),
    ((0.63149399, 0.07491100), (0.37282383, 0.16905001), (0.16905001, 0.37282383), (0.07491100, 0.63149399)),
    ((0.07491100, 0.63149399), (0.0, 0.86840694), (0.0, 1.08849296), (0.0, 1.52866483)),
]


def _bezier(p0, p1, p2, p3, t):
    u = 1 - t
    return (u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1])


def _continuous_profile():
    """x(y) of the unit continuous corner outline (distance of the outline from the left edge
    at depth y below the top edge), as a dense table."""
    pts = []
    for seg in _C:
        for t in np.linspace(0, 1, 400):
            pts.append(_bezier(*seg, t))
    pts = np.array(pts)
    order = np.argsort(pts[:, 1])
    ys, xs = pts[order, 1], pts[order, 0]
    return ys, xs


_CONT_Y, _CONT_X = _continuous_profile()


def inset_continuous(depth, r):
    """Horizontal inset of the outline at `depth` below the straight top edge (both in pt)."""
    d = np.asarray(depth, dtype=float) / r
    out = np.interp(d, _CONT_Y, _CONT_X, right=0.0) * r
    return np.where(d >= 1.52866483, 0.0, out)


def inset_circle(depth, r):
    d = np.asarray(depth, dtype=float)
    inside = np.clip(r - d, 0, None)
    return np.where(d >= r, 0.0, r - np.sqrt(np.clip(r * r - inside * inside, 0, None)))


# ---------------------------------------------------------------- helpers
class Img:
    def __init__(self, path, scale):
        im = Image.open(path).convert("RGB")
        self.a = np.asarray(im).astype(np.float64)
        self.h, self.w = self.a.shape[:2]
        self.s = float(scale)

    def px(self, v):
        return v * self.s

    def pt(self, v):
        return None if v is None else v / self.s

    def patch_color(self, xpt, ypt, rpt=1.5):
        x, y, r = int(round(self.px(xpt))), int(round(self.px(ypt))), max(1, int(round(self.px(rpt))))
        x0, x1 = max(0, x - r), min(self.w, x + r + 1)
        y0, y1 = max(0, y - r), min(self.h, y + r + 1)
        return np.median(self.a[y0:y1, x0:x1].reshape(-1, 3), axis=0)


def _crossing(profile, a, b):
    """profile: N x 3 colours along a scanline from outside (index 0) to inside.
    a: outside colour, b: inside colour.  Returns (sub-pixel index of the 50 % crossing,
    10-90 % width in px) or (None, None)."""
    d = b - a
    n2 = float(np.dot(d, d))
    if n2 < 36.0:  # less than ~6 levels of contrast: no edge to see
        return None, None
    t = (profile - a) @ d / n2
    # smooth a little against noise and anti-aliasing of JPEGs
    if len(t) >= 3:
        t = np.convolve(t, np.ones(3) / 3, mode="same")
    idx = None
    for i in range(1, len(t)):
        if t[i - 1] < 0.5 <= t[i]:
            idx = i - 1 + (0.5 - t[i - 1]) / max(1e-9, t[i] - t[i - 1])
            break
    if idx is None:
        return None, None
    # transition width 10..90 around idx
    i10 = i90 = None
    c = int(idx)
    for i in range(c, 0, -1):
        if t[i] <= 0.1:
            i10 = i
            break
    for i in range(c, len(t)):
        if t[i] >= 0.9:
            i90 = i
            break
    width = (i90 - i10) if (i10 is not None and i90 is not None) else 4.0
    return idx, float(width)


def _edge_on_profile(prof):
    """Sub-pixel edge on a scanline profile (N x 3, outside -> inside): the strongest colour step,
    refined to the half-way crossing between the levels just outside and just inside it.
    Returns (index, 10-90 % width in px) or (None, None)."""
    n = len(prof)
    if n < 9:
        return None, None
    g = np.zeros(n)
    g[1:-1] = np.sqrt(((prof[2:] - prof[:-2]) ** 2).sum(axis=1))
    k = int(np.argmax(g[3:-3])) + 3
    if g[k] < 8.0:
        return None, None
    a = prof[max(0, k - 5):k - 2].mean(axis=0)
    b = prof[k + 3:k + 6].mean(axis=0)
    lo, hi = max(0, k - 4), min(n, k + 5)
    idx, wdt = _crossing(prof[lo:hi], a, b)
    if idx is None:
        return None, None
    return lo + idx, wdt


def find_edge(img, side, hint, n_lines=9, search=6.0, out_off=6.0, in_off=4.0, along=None):
    """Locate one straight edge of a rectangle-like platter.
    side: 'l','r','t','b'.  hint: [x0,y0,x1,y1] in pt.  Several scanlines across the edge, each
    gives the strongest step within +-search pt of the hint.  Returns (pos_pt, err_pt, n)."""
    x0, y0, x1, y1 = hint
    if along is None:
        if side in "lr":
            along = (y0 + 0.35 * (y1 - y0), y1 - 0.35 * (y1 - y0))
        else:
            along = (x0 + 0.3 * (x1 - x0), x1 - 0.3 * (x1 - x0))
    positions = np.linspace(along[0], along[1], n_lines)
    found, widths = [], []
    for p in positions:
        horiz = side in "lr"
        e = {"l": x0, "r": x1, "t": y0, "b": y1}[side]
        sgn = 1 if side in "lt" else -1
        start, stop = e - sgn * search, e + sgn * min(search, in_off + 2)
        idxs = np.arange(img.px(start), img.px(stop), sgn)
        lim = img.w if horiz else img.h
        idxs = idxs[(idxs >= 0) & (idxs < lim)].astype(int)
        q = int(round(img.px(p)))
        if len(idxs) < 9 or not (0 <= q < (img.h if horiz else img.w)):
            continue
        prof = img.a[q, idxs] if horiz else img.a[idxs, q]
        idx, wdt = _edge_on_profile(prof)
        if idx is None:
            continue
        found.append(idxs[0] + sgn * idx + 0.5)
        widths.append(wdt)
    if not found:
        return None, None, 0
    f = np.array(found)
    med = float(np.median(f))
    f = f[np.abs(f - med) <= 2.0 * img.s]
    spread = float(np.percentile(f, 84) - np.percentile(f, 16)) / 2 if len(f) > 2 else 1.0
    err_px = max(0.5, spread, 0.25 * float(np.median(widths)))
    return med / img.s, err_px / img.s, int(len(f))


def _corner_outline(kind, r, n=120):
    """Outline of a top-left corner of radius r (pt) with the straight edges along x=0 and y=0,
    from the left edge (0, L) to the top edge (L, 0); L = r (circle) or 1.52866 r (continuous)."""
    if kind == "circular":
        th = np.linspace(np.pi, 1.5 * np.pi, n)
        pts = np.c_[r + r * np.cos(th), r + r * np.sin(th)]
        return pts  # from (0, r) to (r, 0)
    pts = []
    for seg in _C[::-1]:
        p0, p1, p2, p3 = seg
        for t_ in np.linspace(0, 1, n // 3):
            x, y = _bezier(p3, p2, p1, p0, t_)
            pts.append((x * r, y * r))
    return np.array(pts)


def _coverage(kind, r, size_px, s, ss=4):
    """Anti-aliased coverage (0..1) of the platter in a size_px x size_px window whose top-left
    pixel corner is the platter's (straight-edge) corner, for a corner of radius r pt at scale s."""
    from PIL import ImageDraw
    N = size_px * ss
    im = Image.new("L", (N, N), 0)
    d = ImageDraw.Draw(im)
    pts = _corner_outline(kind, r) * s * ss
    poly = [(0, N + 10), (0, pts[0][1])] + [tuple(p) for p in pts] + [(N + 10, 0), (N + 10, N + 10)]
    d.polygon(poly, fill=255)
    im = im.resize((size_px, size_px), Image.BOX)
    return np.asarray(im).astype(float) / 255.0


def fit_corner(img, box, corner, fill, bg_side_off=5.0):
    """Template fit of one corner.  The picture's membership map (0 = background, 1 = platter
    fill, from projecting each pixel's colour between the background colour outside the corner and
    the fill) is compared, pixel by pixel, with the anti-aliased coverage of a circular and of a
    continuous corner of radius r placed on the measured straight edges; r is scanned in 0.05 pt
    steps.  Pixels far from the outline (text, icons) do not enter: only those within 1.5 pt of
    either model outline are compared."""
    l, t, r_, b = box
    maxr = min(40.0, 0.5 * min(r_ - l, b - t))
    size_pt = 1.6 * maxr
    npx = int(round(size_pt * img.s))
    # crop oriented so that the corner is at the top-left of the crop
    X0 = int(round(l * img.s)) if corner[1] == "l" else int(round(r_ * img.s)) - npx
    Y0 = int(round(t * img.s)) if corner[0] == "t" else int(round(b * img.s)) - npx
    if X0 < 0 or Y0 < 0 or X0 + npx > img.w or Y0 + npx > img.h:
        return None
    crop = img.a[Y0:Y0 + npx, X0:X0 + npx]
    if corner[1] == "r":
        crop = crop[:, ::-1]
    if corner[0] == "b":
        crop = crop[::-1]
    # sub-pixel offset of the straight edges within the crop (the crop starts at a rounded pixel)
    offx = (l * img.s - X0) if corner[1] == "l" else ((X0 + npx) - r_ * img.s)
    offy = (t * img.s - Y0) if corner[0] == "t" else ((Y0 + npx) - b * img.s)
    # background: just outside the corner region along the diagonal
    bgx = l - 2.0 if corner[1] == "l" else r_ + 2.0
    bgy = t - 2.0 if corner[0] == "t" else b + 2.0
    bg = img.patch_color(bgx, bgy, 1.0) if (0 <= bgx * img.s < img.w and 0 <= bgy * img.s < img.h) else None
    if bg is None:
        bg = crop[0, 0]
    d = fill - bg
    n2 = float(np.dot(d, d))
    if n2 < 100:
        return None
    m = (crop - bg) @ d / n2
    res = {}
    best_all = {}
    def model_at(kind, rr):
        big = _coverage(kind, rr, npx + 4, img.s)
        iy, ix = int(np.floor(offy)), int(np.floor(offx))
        fy, fx = offy - iy, offx - ix
        pad = np.pad(big, ((4, 0), (4, 0)), constant_values=0)
        yy0, xx0 = 4 - iy, 4 - ix
        c00 = pad[yy0:yy0 + npx, xx0:xx0 + npx]
        c10 = pad[yy0 - 1:yy0 - 1 + npx, xx0:xx0 + npx]
        c01 = pad[yy0:yy0 + npx, xx0 - 1:xx0 - 1 + npx]
        c11 = pad[yy0 - 1:yy0 - 1 + npx, xx0 - 1:xx0 - 1 + npx]
        return (1 - fy) * (1 - fx) * c00 + fy * (1 - fx) * c10 + (1 - fy) * fx * c01 + fy * fx * c11

    mc = np.clip(m, 0, 1)
    for kind in ("circular", "continuous"):
        # coarse scan (0.5 pt), then fine (0.05 pt) around the best coarse radius; the comparison
        # band is the union of the partially covered pixels of the candidate models, dilated
        coarse = [(rr, model_at(kind, rr)) for rr in np.arange(3.0, maxr + 1e-6, 0.5)]
        band = np.zeros((npx, npx), bool)
        for rr, model in coarse:
            band |= (model > 0.02) & (model < 0.98)
        band = binary_dilation(band, iterations=int(round(img.s)))
        band &= (m > -0.4) & (m < 1.4)
        if band.sum() < 20:
            return None
        sc = [(rr, float(np.sqrt(np.mean((mo[band] - mc[band]) ** 2)))) for rr, mo in coarse]
        r0 = min(sc, key=lambda z: z[1])[0]
        fine = [(rr, model_at(kind, rr)) for rr in np.arange(max(3.0, r0 - 0.75), min(maxr, r0 + 0.75) + 1e-6, 0.05)]
        best_all[kind] = (fine, band)
    for kind, (rows, band) in best_all.items():
        scores = [(rr, float(np.sqrt(np.mean((model[band] - mc[band]) ** 2)))) for rr, model in rows]
        rr, sc = min(scores, key=lambda z: z[1])
        ok = [z[0] for z in scores if z[1] <= sc * 1.05 + 0.002]
        res[kind] = {"r": round(rr, 2), "rms": round(sc, 4), "r_range": [round(min(ok), 2), round(max(ok), 2)]}
    res["shape"] = "continuous" if res["continuous"]["rms"] < res["circular"]["rms"] else "circular"
    res["contrast"] = round(math.sqrt(n2), 1)
    return res


def measure_platter(img, it):
    hint = it["hint"]
    edges = it.get("edges", "ltrb")
    out = {"kind": "platter"}
    box = list(hint)
    errs = {}
    for side, k in (("l", 0), ("t", 1), ("r", 2), ("b", 3)):
        if side not in edges:
            box[k] = None
            continue
        pos, err, n = find_edge(img, side, hint, along=it.get("along", {}).get(side),
                                search=it.get("search", 6.0), in_off=it.get("in_off", 4.0))
        if pos is None:
            box[k] = None
            continue
        box[k] = pos
        errs[side] = round(err, 2)
    out["left"], out["top"], out["right"], out["bottom"] = [None if v is None else round(v, 2) for v in box]
    out["edge_err"] = errs
    if box[0] is not None and box[2] is not None:
        out["width"] = round(box[2] - box[0], 2)
    if box[1] is not None and box[3] is not None:
        out["height"] = round(box[3] - box[1], 2)
    # fill colour: median of a patch well inside, away from text (hint may name it)
    fp = it.get("fill_at")
    if fp is None:
        fp = [(hint[0] + hint[2]) / 2, hint[1] + 4]
    fill = img.patch_color(fp[0], fp[1], 1.0)
    out["fill_rgb"] = [int(v) for v in fill]
    corners = it.get("corners") or ([it["corner"]] if it.get("corner") else [])
    if corners and all(v is not None for v in box):
        per = {}
        for c in corners:
            per[c] = fit_corner(img, box, c, fill)
        good = {c: f for c, f in per.items() if f and f["contrast"] >= 30 and min(f["continuous"]["rms"], f["circular"]["rms"]) < 0.25}
        if good:
            rc = [f["continuous"]["r"] for f in good.values()]
            ri = [f["circular"]["r"] for f in good.values()]
            nc = sum(1 for f in good.values() if f["shape"] == "continuous")
            out["corner"] = {"continuous": {"r": round(float(np.median(rc)), 2), "spread": round(float(max(rc) - min(rc)), 2)},
                             "circular": {"r": round(float(np.median(ri)), 2), "spread": round(float(max(ri) - min(ri)), 2)},
                             "shape": "continuous" if nc * 2 > len(good) else ("circular" if nc * 2 < len(good) else "undecided"),
                             "used": sorted(good), "per_corner": per}
        else:
            out["corner"] = {"unmeasurable": True, "per_corner": per}
    out["_box"] = box
    out["_fill"] = fill
    return out


def binary_dilation(mask, iterations=1):
    """scipy.ndimage.binary_dilation with its default cross-shaped element (numpy only)."""
    m = mask.copy()
    for _ in range(iterations):
        n = m.copy()
        n[1:, :] |= m[:-1, :]; n[:-1, :] |= m[1:, :]; n[:, 1:] |= m[:, :-1]; n[:, :-1] |= m[:, 1:]
        m = n
    return m


def median_filter(a, size, mode="nearest"):
    """scipy.ndimage.median_filter for a square window with edge padding (numpy only, in row chunks)."""
    r = size // 2
    pad = np.pad(a, r, mode="edge")
    out = np.empty(a.shape, dtype=float)
    win = np.lib.stride_tricks.sliding_window_view(pad, (size, size))
    for y in range(0, a.shape[0], 16):
        out[y:y + 16] = np.median(win[y:y + 16].reshape(min(16, a.shape[0] - y), a.shape[1], -1), axis=2)
    return out


def ink_mask(img, within, fill, thr, local_bg=None):
    """Pixels that differ from the platter fill by more than thr (RGB distance).  With local_bg
    (pt), the fill is estimated locally by a median filter of that size (for glass or blurred
    platters whose fill changes across the card; text strokes are much thinner than the window)."""
    x0, y0, x1, y1 = [int(round(img.px(v))) for v in within]
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(img.w, x1), min(img.h, y1)
    sub = img.a[y0:y1, x0:x1]
    if local_bg:
        k = max(3, int(round(img.px(local_bg))) | 1)
        ref = np.stack([median_filter(sub[..., c], size=k, mode="nearest") for c in range(3)], axis=2)
    else:
        ref = fill.reshape(1, 1, 3)
    d = np.sqrt(((sub - ref) ** 2).sum(axis=2))
    return d > thr, (x0, y0)


def measure_blob(img, it, refs):
    ref = refs[it["ref"]]
    fill = img.patch_color(*it["fill_at"], 1.0) if it.get("fill_at") else ref["_fill"]
    thr = it.get("threshold", 40.0)
    m, (ox, oy) = ink_mask(img, it["within"], fill, thr, it.get("local_bg"))
    if not m.any():
        return {"kind": "blob", "found": False}
    # keep the largest connected component (4-neighbour flood fill, small images so fine)
    from collections import deque
    H, W = m.shape
    lab = np.zeros_like(m, dtype=np.int32)
    best, bestn, cur = 0, 0, 0
    for yy in range(H):
        for xx in range(W):
            if m[yy, xx] and lab[yy, xx] == 0:
                cur += 1
                q = deque([(yy, xx)])
                lab[yy, xx] = cur
                n = 0
                while q:
                    a, b = q.popleft()
                    n += 1
                    for da, db in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        na, nb = a + da, b + db
                        if 0 <= na < H and 0 <= nb < W and m[na, nb] and lab[na, nb] == 0:
                            lab[na, nb] = cur
                            q.append((na, nb))
                if n > bestn:
                    best, bestn = cur, n
    ys, xs = np.nonzero(lab == best)
    x0, x1 = (xs.min() + ox) / img.s, (xs.max() + 1 + ox) / img.s
    y0, y1 = (ys.min() + oy) / img.s, (ys.max() + 1 + oy) / img.s
    extra = {}
    if it.get("extent_at"):
        # the contiguous run of the blob through a point: a circle's (avatar's) diameter along
        # its centre row and column, unaffected by a badge overlapping another part of it
        cx, cy = it["extent_at"]
        px_, py_ = int(round(img.px(cx))) - ox, int(round(img.px(cy))) - oy
        comp = lab == best

        def run(line, i):
            """The first and last index of the set run through `i`."""
            lo, hi = i, i
            while lo > 0 and line[lo - 1]:
                lo -= 1
            while hi < len(line) - 1 and line[hi + 1]:
                hi += 1
            return lo, hi
        a, b = run(comp[py_], px_)
        c, e = run(comp[:, px_], py_)
        extra = {"run_left": round((a + ox) / img.s, 2), "run_right": round((b + 1 + ox) / img.s, 2),
                 "run_top": round((c + oy) / img.s, 2), "run_bottom": round((e + 1 + oy) / img.s, 2),
                 "run_width": round((b + 1 - a) / img.s, 2), "run_height": round((e + 1 - c) / img.s, 2)}
    if it.get("circle"):
        # avatar: fit a circle (Kasa least squares) to the component's left outline (leftmost pixel
        # of each row) and top outline (topmost pixel of each column over the left 70 %), which a
        # badge at the bottom-trailing corner does not touch
        comp = lab == best
        pts = []
        cols_ = np.nonzero(comp.any(axis=0))[0]
        c0, c1 = cols_.min(), cols_.max()
        for yy in range(comp.shape[0]):
            xs_ = np.nonzero(comp[yy])[0]
            if len(xs_):
                pts.append((xs_.min(), yy + 0.5))
        for xx in range(c0, int(c0 + 0.7 * (c1 - c0))):
            ys_ = np.nonzero(comp[:, xx])[0]
            if len(ys_):
                pts.append((xx + 0.5, ys_.min()))
        P = np.array(pts, dtype=float)
        A = np.c_[2 * P[:, 0], 2 * P[:, 1], np.ones(len(P))]
        bb = (P ** 2).sum(axis=1)
        # keep only the upper-left arc (rows above the centre for the left outline are safe;
        # drop points far below where a badge could join)
        sol = np.linalg.lstsq(A, bb, rcond=None)[0]
        cx_, cy_ = sol[0], sol[1]
        rad = math.sqrt(sol[2] + cx_ ** 2 + cy_ ** 2)
        keep = (P[:, 1] <= cy_ + 0.3 * rad) | (P[:, 0] <= cx_)
        P = P[keep]
        A = np.c_[2 * P[:, 0], 2 * P[:, 1], np.ones(len(P))]
        bb = (P ** 2).sum(axis=1)
        sol = np.linalg.lstsq(A, bb, rcond=None)[0]
        cx_, cy_ = sol[0], sol[1]
        rad = math.sqrt(sol[2] + cx_ ** 2 + cy_ ** 2)
        extra.update({"circle_diameter": round(2 * rad / img.s, 2),
                      "circle_left": round((cx_ - rad + ox) / img.s, 2),
                      "circle_top": round((cy_ - rad + oy) / img.s, 2),
                      "circle_centre": [round((cx_ + ox) / img.s, 2), round((cy_ + oy) / img.s, 2)]})
    return {**extra, "kind": "blob", "left": round(x0, 2), "top": round(y0, 2), "right": round(x1, 2),
            "bottom": round(y1, 2), "width": round(x1 - x0, 2), "height": round(y1 - y0, 2),
            "err": round(max(0.5 / img.s, 0.5), 2)}


def _bands(profile, min_gap_px, min_h_px):
    on = profile > 0
    bands, i, n = [], 0, len(profile)
    while i < n:
        if on[i]:
            j = i
            while j < n and (on[j] or (j + min_gap_px < n and on[j:j + min_gap_px].any())):
                j += 1
            if j - i >= min_h_px:
                bands.append((i, j))
            i = j
        else:
            i += 1
    return bands


def measure_text(img, it, refs):
    ref = refs[it["ref"]]
    fill = ref["_fill"]
    thr = it.get("threshold", 60.0)
    m, (ox, oy) = ink_mask(img, it["within"], fill, thr, it.get("local_bg"))
    out = {"kind": "text"}
    cols = m.sum(axis=0)
    rows = m.sum(axis=1)
    xs = np.nonzero(cols > 0)[0]
    if len(xs) == 0:
        out["found"] = False
        return out
    out["left"] = round((xs.min() + ox) / img.s, 2)
    out["right"] = round((xs.max() + 1 + ox) / img.s, 2)
    bands = _bands(rows, max(1, int(round(img.px(it.get("line_gap", 2.0))))), max(2, int(img.px(3))))
    lines = []
    for (a, b) in bands:
        seg = rows[a:b]
        peak = seg.max()
        good = np.nonzero(seg >= 0.35 * peak)[0]
        base = a + good.max() + 1
        top = a
        bx = np.nonzero(m[a:b].sum(axis=0) > 0)[0]
        lines.append({"ink_top": round((top + oy) / img.s, 2), "baseline": round((base + oy) / img.s, 2),
                      "ink_bottom": round((b + oy) / img.s, 2),
                      "left": round((bx.min() + ox) / img.s, 2), "right": round((bx.max() + 1 + ox) / img.s, 2)})
    out["lines"] = lines
    if len(lines) >= 2:
        out["baseline_pitch"] = [round(lines[i + 1]["baseline"] - lines[i]["baseline"], 2) for i in range(len(lines) - 1)]
    out["err"] = round(max(0.5, 1.0) / img.s + 0.3, 2)
    return out


def measure_hlines(img, it, refs):
    """Thin horizontal lines (menu separators): rows whose colour differs uniformly from the fill."""
    ref = refs[it["ref"]]
    fill = ref["_fill"]
    x0, y0, x1, y1 = [int(round(img.px(v))) for v in it["within"]]
    sub = img.a[y0:y1, x0:x1]
    d = np.sqrt(((sub - fill) ** 2).sum(axis=2))
    frac = (d > it.get("threshold", 18.0)).mean(axis=1)
    ys = np.nonzero(frac > 0.9)[0]
    out = []
    if len(ys):
        groups = np.split(ys, np.nonzero(np.diff(ys) > 1)[0] + 1)
        for g in groups:
            out.append({"y": round((g.mean() + 0.5 + y0) / img.s, 2), "thickness_px": int(len(g))})
    return {"kind": "hlines", "lines": out}


def run(path, scale, spec):
    img = Img(path, scale)
    res = {"image": path, "scale": scale, "size_px": [img.w, img.h],
           "size_pt": [round(img.w / img.s, 2), round(img.h / img.s, 2)], "items": {}}
    refs = {}
    for it in spec["items"]:
        k = it["kind"]
        if k == "platter":
            r = measure_platter(img, it)
            refs[it["name"]] = r
        elif k == "blob":
            r = measure_blob(img, it, refs)
        elif k == "text":
            r = measure_text(img, it, refs)
            if "time_within" in it:
                t = measure_text(img, dict(it, within=it["time_within"]), refs)
                r["time"] = {k2: t.get(k2) for k2 in ("left", "right", "lines")}
        elif k == "hlines":
            r = measure_hlines(img, it, refs)
        else:
            raise SystemExit(f"unknown kind {k}")
        res["items"][it["name"]] = r
    # derived numbers
    d = {}
    W = img.w / img.s
    P = res["items"].get("platter")
    if P:
        if spec.get("full_width") and P.get("left") is not None:
            d["inset_left"] = P["left"]
        if spec.get("full_width") and P.get("right") is not None:
            d["inset_right"] = round(W - P["right"], 2)
        for key in ("width", "height"):
            if key in P:
                d["platter_" + key] = P[key]
        if P.get("corner") and not P["corner"].get("unmeasurable"):
            d["corner_r_continuous"] = P["corner"]["continuous"]["r"]
            d["corner_r_circular"] = P["corner"]["circular"]["r"]
            d["corner_shape"] = P["corner"]["shape"]
        I = res["items"].get("icon")
        if I and I.get("left") is not None and P.get("left") is not None:
            d["icon_left_in_platter"] = round(I["left"] - P["left"], 2)
            d["icon_size"] = [I["width"], I["height"]]
            if P.get("top") is not None:
                d["icon_top_in_platter"] = round(I["top"] - P["top"], 2)
            if P.get("top") is not None and P.get("bottom") is not None:
                d["icon_centre_offset_from_platter_centre"] = round((I["top"] + I["bottom"]) / 2 - (P["top"] + P["bottom"]) / 2, 2)
        T = res["items"].get("text")
        if T and T.get("left") is not None and P.get("left") is not None:
            d["text_left_in_platter"] = round(T["left"] - P["left"], 2)
            if I and I.get("right") is not None:
                d["icon_to_text_gap"] = round(T["left"] - I["right"], 2)
            if T.get("lines") and P.get("top") is not None:
                d["first_baseline_from_top"] = round(T["lines"][0]["baseline"] - P["top"], 2)
                if P.get("bottom") is not None:
                    d["last_baseline_to_bottom"] = round(P["bottom"] - T["lines"][-1]["baseline"], 2)
            if T.get("baseline_pitch"):
                d["baseline_pitch"] = T["baseline_pitch"]
            tm = T.get("time")
            if tm and tm.get("right") is not None and P.get("right") is not None:
                d["time_trailing_inset"] = round(P["right"] - tm["right"], 2)
                if tm.get("lines"):
                    d["time_baseline_from_top"] = round(tm["lines"][0]["baseline"] - P["top"], 2) if P.get("top") is not None else None
    M = res["items"].get("menu")
    if M and P and M.get("top") is not None and P.get("bottom") is not None:
        d["platter_to_menu_gap"] = round(M["top"] - P["bottom"], 2)
        if M.get("width") is not None:
            d["menu_width"] = M["width"]
        if M.get("height") is not None:
            d["menu_height"] = M["height"]
        if M.get("left") is not None and M.get("right") is not None:
            d["menu_centre_x"] = round((M["left"] + M["right"]) / 2, 2)
            d["menu_centre_offset_from_screen_centre"] = round((M["left"] + M["right"]) / 2 - W / 2, 2) if spec.get("full_width") else None
        if M.get("corner") and not M["corner"].get("unmeasurable"):
            d["menu_corner_r_continuous"] = M["corner"]["continuous"]["r"]
            d["menu_corner_r_circular"] = M["corner"]["circular"]["r"]
            d["menu_corner_shape"] = M["corner"]["shape"]
    res["derived"] = d
    for r in res["items"].values():
        r.pop("_box", None)
        r.pop("_fill", None)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("image")
    ap.add_argument("--scale", type=float, required=True, help="pixels per point (3 for @3x)")
    ap.add_argument("--spec", required=True, help="JSON file or inline JSON")
    ap.add_argument("--out")
    a = ap.parse_args()
    spec = json.loads(a.spec) if a.spec.strip().startswith("{") else json.load(open(a.spec))
    res = run(a.image, a.scale, spec)
    s = json.dumps(res, indent=1, ensure_ascii=False)
    if a.out:
        open(a.out, "w").write(s + "\n")
    print(s)


if __name__ == "__main__":
    main()
