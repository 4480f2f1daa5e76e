#!/bin/sh
# Regenerates NotoSansCJKsc-Subset.otf: Noto Sans CJK SC Regular (OFL-1.1), cut to the
# characters the message catalog uses plus GB 2312's level-1 hanzi (the 3755 most common) and
# its punctuation and full-width rows, without hinting or layout features. The whole of
# GB 2312 (6763 hanzi) would add 1.5 MB to the binary and break its 60 MB budget; level 1
# adds about 0.8 MB.
#
# Needs: python3 with fonttools (pip install fonttools), and NotoSansCJK-Regular.ttc from
# Debian's fonts-noto-cjk (apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb x),
# given as $1 (default: the installed file). Run from the repository root.
set -eu
ttc=${1:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}
out=assets/fonts/NotoSansCJKsc-Subset.otf
chars=$(mktemp)
python3 - "$chars" <<'PY'
import sys
text = set()
# GB 2312 rows 1 (punctuation) and 3 (full-width ASCII), and rows 16-55 (level-1 hanzi).
for hi in [0xA1, 0xA3] + list(range(0xB0, 0xD8)):
    for lo in range(0xA1, 0xFF):
        try:
            text.add(bytes([hi, lo]).decode("gb2312"))
        except UnicodeDecodeError:
            pass
# Every non-ASCII character of the catalogs and the template.
import glob
for path in ["crates/report/src/i18n/catalog.rs", "crates/report/templates/report.typ"] + sorted(glob.glob("locales/zh/*.ftl")):
    text.update(c for c in open(path, encoding="utf-8").read() if ord(c) > 127)
open(sys.argv[1], "w", encoding="utf-8").write("".join(sorted(text)))
PY
# Font number 2 of the collection is Noto Sans CJK SC.
pyftsubset "$ttc" --font-number=2 --text-file="$chars" --output-file="$out" \
  --layout-features='' --no-hinting --name-IDs='*' --name-languages='*'
rm -f "$chars"
ls -l "$out"
