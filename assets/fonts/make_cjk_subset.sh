#!/bin/sh
# Regenerates NotoSansCJKsc-Subset.otf and NotoSansCJKsc-Bold-Subset.otf: Noto Sans CJK SC
# Regular and Bold (OFL-1.1), each cut to ASCII, the whole of GB 2312 (its 682 symbols and
# 6,763 hanzi), the 8,105 hanzi of the Table of General Standard Chinese Characters
# (通用规范汉字表, 2013: GB 2312 lacks 昇 of 昇腾, for one), and every other character the
# catalogs use, without hinting or layout features: 8,230 hanzi, about 2 MB a weight.
# assets/fonts/common-hanzi.txt lists the symbols and hanzi, for the font test. And
# NotoSansCJKsc-Catalog.otf: the Regular weight cut to the catalogs' characters alone, which an
# HTML page embeds when its text needs no other (a page with rarer hanzi embeds the Regular
# subset above).
#
# Needs: python3 with fonttools (pip install fonttools); Unihan's kTGH field (Debian's
# unicode-data: /usr/share/unicode/Unihan_OtherMappings.txt.bz2, or $UNIHAN); and
# NotoSansCJK-Regular.ttc from
# Debian's fonts-noto-cjk (apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb x),
# given as $1 (default: the installed file). Run from the repository root.
set -eu
ttc=${1:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}
bold_ttc=$(dirname "$ttc")/NotoSansCJK-Bold.ttc
out=assets/fonts/NotoSansCJKsc-Subset.otf
bold_out=assets/fonts/NotoSansCJKsc-Bold-Subset.otf
catalog_out=assets/fonts/NotoSansCJKsc-Catalog.otf
chars=$(mktemp)
bold_chars=$(mktemp)
catalog_chars=$(mktemp)
unihan=${UNIHAN:-/usr/share/unicode/Unihan_OtherMappings.txt.bz2}
python3 - "$chars" "$bold_chars" "$unihan" "$catalog_chars" <<'PY'
import bz2
import sys
# ASCII: Chinese reports set Latin letters and digits in the same sans as the hanzi.
text = set(chr(c) for c in range(0x20, 0x7F))
bold = set(text)
# GB 2312 rows 1-9 (punctuation, symbols, full-width forms, kana, Greek, Cyrillic, pinyin,
# box drawing) and 16-87 (the 6,763 hanzi of levels 1 and 2), in both weights.
for hi in list(range(0xA1, 0xAA)) + list(range(0xB0, 0xF8)):
    for lo in range(0xA1, 0xFF):
        try:
            c = bytes([hi, lo]).decode("gb2312")
        except UnicodeDecodeError:
            continue
        text.add(c)
        bold.add(c)
# The Table of General Standard Chinese Characters: Unihan's kTGH field.
for line in bz2.open(sys.argv[3], "rt", encoding="utf-8"):
    fields = line.split("\t")
    if len(fields) == 3 and fields[1] == "kTGH":
        c = chr(int(fields[0][2:], 16))
        text.add(c)
        bold.add(c)
# The list the font test checks both weights against.
open("assets/fonts/common-hanzi.txt", "w", encoding="utf-8").write("".join(sorted(c for c in text if ord(c) > 127)) + "\n")
# Every non-ASCII character of the catalogs, the Chinese builders and the template.
import glob
for path in sorted(glob.glob("crates/report/templates/*.typ")) + sorted(glob.glob("crates/report/src/i18n/*.rs")) + sorted(glob.glob("locales/zh/*.ftl")):
    used = [c for c in open(path, encoding="utf-8").read() if ord(c) > 127]
    text.update(used)
    bold.update(used)
catalog = set()
for path in sorted(glob.glob("crates/report/templates/*.typ")) + sorted(glob.glob("crates/report/src/i18n/*.rs")) + sorted(glob.glob("locales/zh/*.ftl")):
    catalog.update(c for c in open(path, encoding="utf-8").read() if ord(c) > 127)
open(sys.argv[4], "w", encoding="utf-8").write("".join(sorted(catalog)))
open(sys.argv[1], "w", encoding="utf-8").write("".join(sorted(text)))
open(sys.argv[2], "w", encoding="utf-8").write("".join(sorted(bold)))
PY
# Font number 2 of each collection is Noto Sans CJK SC.
pyftsubset "$ttc" --font-number=2 --text-file="$chars" --output-file="$out" \
  --layout-features='' --no-hinting --name-IDs='*' --name-languages='*'
pyftsubset "$bold_ttc" --font-number=2 --text-file="$bold_chars" --output-file="$bold_out" \
  --layout-features='' --no-hinting --name-IDs='*' --name-languages='*'
pyftsubset "$ttc" --font-number=2 --text-file="$catalog_chars" --output-file="$catalog_out" \
  --layout-features='' --no-hinting --name-IDs='*' --name-languages='*'
rm -f "$chars" "$bold_chars" "$catalog_chars"
ls -l "$out" "$bold_out" "$catalog_out"
