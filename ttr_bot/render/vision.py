"""How far apart two colours look, to normal eyes and to colour-blind ones: the figures behind the
colour-blind palette (palette.py) and its test.

`simulate(rgb, kind)` is what a dichromat sees (Machado, Oliveira & Fernandes 2009, severity
1.0, applied to linear RGB as colorspacious and DaltonLens do); `delta_e(a, b)` is CIEDE2000
(Sharma, Wu & Dalal 2005) between two sRGB colours (D65). Pure Python: a few thousand pairs.

    python -m ttr_bot.render.vision      prints the least distance between two player colours
                                         of each palette, to each kind of eye
"""
import math
import sys

# Machado et al. 2009, severity 1.0 (linear RGB in, linear RGB out)
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
EYES = ("normal",) + tuple(MACHADO)


def _linear(v):
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _srgb(v):
    v = min(1.0, max(0.0, v))
    v = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return v * 255


def simulate(rgb, kind):
    """The sRGB colour (floats 0..255) a dichromat of `kind` sees for `rgb`."""
    if kind == "normal":
        return tuple(float(v) for v in rgb)
    lin = [_linear(v) for v in rgb]
    return tuple(_srgb(sum(m * c for m, c in zip(row, lin))) for row in MACHADO[kind])


def lab(rgb):
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(v) for v in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1, lab2):
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dL, dC = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    Lm, cmp_ = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hm = (h1p + h2p + 360) / 2
    else:
        hm = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    d_theta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cmp_ ** 7 / (cmp_ ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (Lm - 50) ** 2 / math.sqrt(20 + (Lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2
                     + rt * (dC / sc) * (dH / sh))


def delta_e(a, b, kind="normal"):
    """CIEDE2000 between sRGB colours a and b as an eye of `kind` sees them."""
    return ciede2000(lab(simulate(a, kind)), lab(simulate(b, kind)))


def least_distance(colours, kind="normal"):
    """(ΔE00, i, j): the closest pair of `colours` to an eye of `kind`."""
    best = None
    for i in range(len(colours)):
        for j in range(i + 1, len(colours)):
            d = delta_e(colours[i], colours[j], kind)
            if best is None or d < best[0]:
                best = (d, i, j)
    return best


def main(argv=None):
    from . import palette as P
    print("least CIEDE2000 distance between two player colours (Machado 2009, severity 1.0)")
    print(f"{'palette':<12}" + "".join(f"{eye:>14}" for eye in EYES))
    for scheme in P.SCHEMES:
        colours = [P.player_rgb(s, scheme) for s in range(len(P.SCHEMES[scheme].players))]
        cells = []
        for eye in EYES:
            d, i, j = least_distance(colours, eye)
            cells.append(f"{d:6.1f} ({i + 1}-{j + 1})")
        print(f"{scheme:<12}" + "".join(f"{c:>14}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
