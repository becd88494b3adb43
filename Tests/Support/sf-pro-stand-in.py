#!/usr/bin/python3
"""Writes fonts named as SF Pro's static faces ("SF Pro Text", "SF Pro Display"; Regular and
Semibold) into DIR, made from Debian's Noto Sans: SF Pro itself cannot be shipped, and the tests
ask what PushPreview does when a team gives it (the chrome switches to it). Noto's widths differ
from Inter's, so text set in the stand-in is seen to move.

    Tests/Support/sf-pro-stand-in.py DIR
"""
import os, sys
from fontTools.ttLib import TTFont

NOTO = "/usr/share/fonts/truetype/noto/NotoSans-%s.ttf"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for family in ("SF Pro Text", "SF Pro Display"):
        for style, source, weight in (("Regular", "Regular", 400), ("Semibold", "Bold", 600)):
            font = TTFont(NOTO % source)
            names = font["name"]
            postscript = family.replace(" ", "") + "-" + style
            # Family, subfamily, full name, PostScript name, and the typographic family/subfamily.
            for record in list(names.names):
                if record.nameID in (1, 2, 3, 4, 6, 16, 17, 21, 22):
                    names.removeNames(nameID=record.nameID)
            for name_id, text in ((1, family), (2, style), (3, postscript), (4, family + " " + style), (6, postscript), (16, family), (17, style)):
                names.setName(text, name_id, 3, 1, 0x409)
                names.setName(text, name_id, 1, 0, 0)
            font["OS/2"].usWeightClass = weight
            if "fvar" in font: sys.exit("%s is variable; a static face is needed" % (NOTO % source))
            font.save(os.path.join(out, "%s-%s.ttf" % (family.replace(" ", "-"), style)))


if __name__ == "__main__":
    main()
