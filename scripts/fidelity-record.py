#!/usr/bin/python3
"""`make fidelity-record`: Chromium's truth for each fixture of Tests/Fixtures/layout, recorded once
into Tests/Fixtures/layout/expected/SCALEx/NAME.json so that the Layout and Styling tests compare
our engine with it on every `swift test`, with no browser (as Yoga's gentest does).
Usage: fidelity-record.py WORKDIR FIXTURES. WORKDIR holds the pages `pushpreview-fidelity prepare`
wrote (WORKDIR/NAME@SCALEx/page.html, the HTML page we emit for the fixture at each device scale);
FIXTURES is the fixture folder. Per fixture and scale, in a Chromium started at that real scale
(chromium_driver), at the fidelity width in a 640 px tall viewport: every id'd element's
border box (getBoundingClientRect, null without a box), a few computed values, and the page's
height (the root element's box). Numbers are rounded to 1/64 px and keys sorted, so the same
Chromium writes the same bytes."""
import json, os, sys
import chromium_driver

work, fixtures = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
WIDTH, HEIGHT = 360, 640
SCALES = [2, 3]  # FixtureLab.scales
# Computed values the Styling tests compare; line-height null for `normal`.
MEASURE = """
    const boxes = {}, styles = {}, duplicates = [];
    for (const e of document.querySelectorAll('body [id]')) {
        if (e.id in boxes) { duplicates.push(e.id); continue; }
        const r = e.getBoundingClientRect(), s = getComputedStyle(e);
        boxes[e.id] = e.getClientRects().length === 0 ? null : [r.x, r.y, r.width, r.height];
        styles[e.id] = {"display": s.display, "position": s.position, "font-size": parseFloat(s.fontSize),
                        "font-weight": parseInt(s.fontWeight), "white-space": s.whiteSpace,
                        "line-height": s.lineHeight === 'normal' ? null : parseFloat(s.lineHeight)};
    }
    return {boxes, styles, duplicates, height: document.documentElement.getBoundingClientRect().height};"""


def rounded(value):
    if isinstance(value, float):
        value = round(value * 64) / 64
        return int(value) if value.is_integer() else value
    if isinstance(value, list):
        return [rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return value


def write(path, data):
    """One line per element, keys sorted: a re-recording's diff names the boxes that moved."""
    lines = ["{"]
    for n, section in enumerate(["boxes", "height", "styles"]):
        comma = "," if n < 2 else ""
        if section == "height":
            lines.append(f' "height": {json.dumps(data["height"])}{comma}')
            continue
        entries = sorted(data[section].items())
        lines.append(f' "{section}": {{' + ("" if entries else f"}}{comma}"))
        for i, (key, value) in enumerate(entries):
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)}" + ("," if i < len(entries) - 1 else ""))
        if entries:
            lines.append(" }" + comma)
    lines.append("}")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


stems = sorted(name[:-5] for name in os.listdir(fixtures) if name.endswith(".html"))
# FIDELITY_ONLY=NAME,NAME (as `prepare` takes it): record those alone, remove nothing.
only = os.environ.get("FIDELITY_ONLY")
every = stems
if only:
    stems = [s for s in stems if s in only.split(",")]
for scale in SCALES:
    expected = os.path.join(fixtures, "expected", f"{scale}x")
    os.makedirs(expected, exist_ok=True)
    driver = chromium_driver.start(scale)
    try:
        for stem in stems:
            page = os.path.join(work, f"{stem}@{scale}x", "page.html")
            if not os.path.exists(page):
                sys.exit(f"fidelity-record: {page} is missing (run pushpreview-fidelity prepare {work} first)")
            if chromium_driver.page_scale(page) != scale:
                sys.exit(f"fidelity-record: {page} states device scale {chromium_driver.page_scale(page):g}, not {scale}")
            chromium_driver.load(driver, page, WIDTH, HEIGHT)
            found = driver.execute_script(MEASURE)
            if found["duplicates"]:
                sys.exit(f"fidelity-record: {stem}.html has ids used twice ({', '.join(found['duplicates'])}): boxes are recorded by id")
            write(os.path.join(expected, stem + ".json"), rounded({"boxes": found["boxes"], "styles": found["styles"], "height": float(found["height"])}))
    finally:
        driver.quit()
    for name in sorted(os.listdir(expected)):
        if name.endswith(".json") and name[:-5] not in every:
            os.remove(os.path.join(expected, name))
            print(f"fidelity-record: removed {scale}x/{name}, whose fixture is gone")
    print(f"fidelity-record: {len(stems)} fixtures recorded at device scale {scale} in {expected}")
