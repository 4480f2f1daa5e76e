#!/bin/sh
# Regenerates NotoSansCJKsc-Subset.otf: Noto Sans CJK SC Regular (OFL-1.1), cut to ASCII, the
# characters the message catalog uses plus GB 2312's level-1 hanzi (the 3755 most common) and
# its punctuation and full-width rows, without hinting or layout features. The whole of
# GB 2312 (6763 hanzi) would add 1.5 MB to the binary and break its 60 MB budget; level 1
# adds about 0.8 MB. And NotoSansCJKsc-Bold-Subset.otf: the Bold weight, cut to ASCII, the
# punctuation rows and the catalogs' characters only (headings, table headers and the
# headline are catalog words and numbers; a bold run name in a hanzi outside them shows in
# the regular weight).
#
# Needs: python3 with fonttools (pip install fonttools), and NotoSansCJK-Regular.ttc from
# Debian's fonts-noto-cjk (apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb x),
# given as $1 (default: the installed file). Run from the repository root.
set -eu
ttc=${1:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}
bold_ttc=$(dirname "$ttc")/NotoSansCJK-Bold.ttc
out=assets/fonts/NotoSansCJKsc-Subset.otf
bold_out=assets/fonts/NotoSansCJKsc-Bold-Subset.otf
chars=$(mktemp)
bold_chars=$(mktemp)
python3 - "$chars" "$bold_chars" <<'PY'
import sys
# ASCII: Chinese reports set Latin letters and digits in the same sans as the hanzi.
text = set(chr(c) for c in range(0x20, 0x7F))
bold = set(text)
# GB 2312 rows 1 (punctuation) and 3 (full-width ASCII), and rows 16-55 (level-1 hanzi).
for hi in [0xA1, 0xA3] + list(range(0xB0, 0xD8)):
    for lo in range(0xA1, 0xFF):
        try:
            c = bytes([hi, lo]).decode("gb2312")
        except UnicodeDecodeError:
            continue
        text.add(c)
        if hi < 0xB0:
            bold.add(c)
# Every non-ASCII character of the catalogs, the Chinese builders and the template.
import glob
for path in sorted(glob.glob("crates/report/templates/*.typ")) + sorted(glob.glob("crates/report/src/i18n/*.rs")) + sorted(glob.glob("locales/zh/*.ftl")):
    used = [c for c in open(path, encoding="utf-8").read() if ord(c) > 127]
    text.update(used)
    bold.update(used)
open(sys.argv[1], "w", encoding="utf-8").write("".join(sorted(text)))
open(sys.argv[2], "w", encoding="utf-8").write("".join(sorted(bold)))
PY
# Font number 2 of each collection is Noto Sans CJK SC.
pyftsubset "$ttc" --font-number=2 --text-file="$chars" --output-file="$out" \
  --layout-features='' --no-hinting --name-IDs='*' --name-languages='*'
pyftsubset "$bold_ttc" --font-number=2 --text-file="$bold_chars" --output-file="$bold_out" \
  --layout-features='' --no-hinting --name-IDs='*' --name-languages='*'
rm -f "$chars" "$bold_chars"
ls -l "$out" "$bold_out"
