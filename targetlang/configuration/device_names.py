"""How vendors name devices: the rules that read a printed name the tables do not list.

The component database (``components.py``) holds what the vendors' tables say. What is here
reads the names those tables cannot list one by one, by the vendors' own naming schemes:

* a PCI device name as ``lspci`` and ``rocm-smi`` print it (``pci.ids``): a chip, then its
  products in brackets (``GA102 [GeForce RTX 3090]``, ``Navi 21 [Radeon RX 6800/6800 XT /
  6900 XT]``): ``pci_chip``, ``split_products``;
* an NVIDIA laptop part (``GeForce GTX 1060 with Max-Q Design``): the same GPU generation as
  the product it is named after (``LAPTOP_WORDS``);
* an x86 CPU by its model number (``Xeon Gold 6148`` is a Skylake-SP, ``EPYC 7763`` a Zen 3):
  ``X86_MODEL_SCHEMES``, to a microarchitecture (archspec's name where archspec has the
  part, else LLVM's CPU name), and a hypervisor's CPU model (``AMD EPYC-Rome Processor``,
  ``Intel Xeon Processor (Cascadelake)``): ``CODENAMES``;
* an Arm CPU by its main ID register as ``/proc/cpuinfo`` prints it (``CPU implementer :
  0x41``, ``CPU part : 0xd0c``) or as a register's value: ``midr_fields``; by what ``lscpu``
  prints of it (``Vendor ID: ARM``, ``Model name: Neoverse-N1``): ``cpu_fields``; by the
  core's name among the vendor's other words (``Cavium ThunderX2(R) CPU CN9980 v2.2``):
  ``arm_words``; a product line by the core its vendor says it has: ``ARM_PRODUCTS``;
* an Apple chip as macOS's ``sysctl machdep.cpu.brand_string`` prints it (``Apple M1 Max``):
  ``apple_chip``;
* what names no architecture at all (``QEMU Virtual CPU``, ``Intel(R) Xeon(R) CPU @
  2.20GHz``), and why: ``why_no_architecture``.

Nothing here knows a product's architecture: the rules only say which part a name is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["ARM_PRODUCTS", "ARM_VENDOR_WORDS", "CODENAMES", "LAPTOP_WORDS", "X86_MODEL_SCHEMES",
           "apple_chip", "arm_words", "cpu_fields", "laptop_base", "midr_fields", "pci_chip",
           "pci_device_name", "split_products", "why_no_architecture", "x86_microarchitecture"]

# ---- PCI device names ---------------------------------------------------------------------------

#: An NVIDIA chip as pci.ids names it (``GA102``, ``AD106M``, ``TU104GL``, ``GV100GL``,
#: ``GA10B``): the chip without its mobile (``M``) or workstation (``GL``) mark.
_NVIDIA_CHIP = re.compile(r"((?:G[A-Z]|AD|TU)\d{2}[0-9B])(?:GLM|GL|BM|B|M)?")
#: Words after an AMD chip's codename that name a bin of it (``Navi 21 XT``, ``Tahiti PRO GL``,
#: ``Vega 10 XL/XT``), not another chip.
_AMD_BIN_WORD = re.compile(r"[A-Z0-9]*[A-Z]{2,}[A-Z0-9]*|\d+[A-Z]+|USB|HDMI|Audio|SRIOV|MxGPU",)


#: What lspci prints around a device's name: its slot and class (``03:00.0 VGA compatible
#: controller [0300]:``), its vendor, the IDs (``[1002:744c]``), revision and interface.
_LSPCI_AROUND = (
    re.compile(r"^\s*(?:[0-9a-f]{2,4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]\s+[^:]*?(?:\[[0-9a-f]{4}\])?:\s*",
               re.IGNORECASE),
    re.compile(r"^\s*(?:NVIDIA Corporation|Nvidia|Advanced Micro Devices,? Inc\.?\s*\[AMD/ATI\]|"
               r"AMD/ATI|ATI Technologies Inc\.?|AMD)\s+(?=\S+.*\[)", re.IGNORECASE),
    re.compile(r"\s*\((?:rev [0-9a-f]+|prog-if [^)]*)\)", re.IGNORECASE),
    re.compile(r"\s*\[[0-9a-f]{4}:[0-9a-f]{4}\]", re.IGNORECASE),
)


def pci_device_name(text: str) -> str:
    """A device's name as pci.ids has it, from a line of lspci (or rocm-smi, or hw-probe):
    ``03:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31
    [Radeon RX 7900 XT/7900 XTX] [1002:744c] (rev c8)`` -> ``Navi 31 [Radeon RX 7900 XT/7900
    XTX]``."""
    for pattern in _LSPCI_AROUND:
        text = pattern.sub("", text)
    return " ".join(text.split())


def pci_chip(name: str) -> tuple[str | None, list[str]]:
    """A PCI device name's chip and its products (``"Navi 21 [Radeon RX 6800/6800 XT]"`` ->
    ``("Navi 21", ["Radeon RX 6800", "Radeon RX 6800 XT"])``); ``(None, [])`` for a name that
    is not a chip with products in brackets."""
    match = re.fullmatch(r"\s*([^\[\]]+?)\s*\[([^\[\]]+)\](?:\s*\(rev [0-9a-f]+\))?\s*", name)
    head = match.group(1) if match else name.strip()
    products = split_products(match.group(2)) if match else []
    first = head.split("/")[0].split()
    if first and _NVIDIA_CHIP.fullmatch(first[0]):
        nvidia = _NVIDIA_CHIP.fullmatch(first[0])
        return (nvidia.group(1) if nvidia else None), products
    words: list[str] = []
    for word in re.split(r"[\s\-]+", head.split("/")[0]):
        if not word or (words and _AMD_BIN_WORD.fullmatch(word)):
            break
        if not (word[0].isupper() or word.isdigit()):
            break
        words.append(word)
    if not words or not match:
        return None, products
    return " ".join(words), products


def split_products(text: str) -> list[str]:
    """The products of a bracket as pci.ids writes it, each named in full: ``Radeon RX
    6800/6800 XT / 6900 XT`` is the RX 6800, the RX 6800 XT and the RX 6900 XT; ``GeForce RTX
    4060 Max-Q / Mobile`` the RTX 4060 Max-Q and the RTX 4060 Mobile."""
    parts = [p.strip() for p in text.split("/") if p.strip()]
    if not parts:
        return []
    out = [parts[0]]
    first = parts[0].split()
    model_at = next((i for i, w in enumerate(first) if any(c.isdigit() for c in w)), len(first))
    line = first[:model_at]  # "Radeon RX"
    model = first[:model_at + 1]  # "Radeon RX 6800"
    for part in parts[1:]:
        words = part.split()
        letters = re.sub(r"[^A-Za-z].*", "", words[0])  # "MI" of "MI355X"
        if words[0][0].isdigit() or (letters and model_at < len(first)
                                     and first[model_at].startswith(letters)):
            out.append(" ".join([*line, *words]))  # "6800 XT", "MI355X": a model of the line
        elif any(c.isdigit() for c in part):
            # "R9 280X", "Pro 5300": a model of another line of the brand
            out.append(" ".join([*first[:1], *words]) if words[0] not in first else part)
        else:
            out.append(" ".join([*model, *words]))  # "Mobile": a variant of the model
    return [" ".join(p.split()) for p in out]


# ---- NVIDIA laptop parts -----------------------------------------------------------------------

#: What a printed name adds for an NVIDIA laptop part. NVIDIA numbers a laptop GPU after the
#: desktop GPU of its generation, on a chip of the same architecture (the GeForce GTX 1060
#: with Max-Q Design is a Pascal like the GTX 1060), so the architecture carries over -- the
#: product does not (another chip, other clocks and memory).
LAPTOP_WORDS = re.compile(r"\s+(?:with\s+Max-Q\s+Design|Max-Q(?:\s+Design)?|Laptop\s+GPU|"
                          r"Mobile|Notebook)(?:\s*/\s*(?:Max-Q|Mobile))*\s*$", re.IGNORECASE)


#: The product lines NVIDIA makes laptop parts of (GeForce, Quadro, RTX workstation); a
#: data-centre part (A100, H100, T4) has none.
_LAPTOP_LINES = re.compile(r"\b(?:GeForce|Quadro|RTX|GTX|MX\d+)\b", re.IGNORECASE)


def laptop_base(name: str) -> str | None:
    """The product a laptop part is named after (``... RTX 3080 Laptop GPU`` ->
    ``... RTX 3080``), or None (not a laptop part's name, or of a line without them)."""
    base = LAPTOP_WORDS.sub("", name)
    return base if base != name and _LAPTOP_LINES.search(base) else None


# ---- x86 CPUs by model number ------------------------------------------------------------------

#: Microarchitecture names: archspec's where archspec has the part (the data file maps them to
#: LLVM's CPU names); LLVM's own for the parts archspec does not name.
_Pick = Callable[["re.Match[str]"], "str | None"]


def _by(table: dict[str, str], group: int = 1) -> _Pick:
    """A pick that looks a captured group up in ``table`` (keys tried as prefixes)."""
    def pick(match: re.Match[str]) -> str | None:
        value = match.group(group).upper()
        for key in sorted(table, key=len, reverse=True):
            if value.startswith(key):
                return table[key]
        return None
    return pick


def _fixed(uarch: str) -> _Pick:
    return lambda match: uarch


def _xeon_scalable(match: re.Match[str]) -> str | None:
    # The second digit is the generation; a Cooper Lake part of the third ends in H or HL.
    generation, suffix = match.group(2), match.group(4).upper()
    if generation == "3" and suffix.startswith("H"):
        return "cooperlake"
    return {"1": "skylake_avx512", "2": "cascadelake", "3": "icelake-server",
            "4": "sapphirerapids", "5": "emeraldrapids"}.get(generation)


def _xeon_e(match: re.Match[str]) -> str | None:
    # E3/E5/E7 "v1".."v6": the version is the generation; E7 without one is a Westmere-EX.
    family, version = match.group(1), match.group(2)
    if version is None:
        return "westmere" if family == "7" else "sandybridge"
    return {"1": "sandybridge", "2": "ivybridge", "3": "haswell", "4": "broadwell",
            "5": "skylake", "6": "skylake"}.get(version)


def _xeon_numbered(match: re.Match[str]) -> str | None:
    # Xeon 3000/5000/7000 of 2006-2011: the second digit is the generation.
    series, generation = match.group(1), match.group(2)
    table = {"5": {"1": "core2", "3": "core2", "4": "penryn", "5": "nehalem", "6": "westmere"},
             "3": {"0": "core2", "1": "penryn", "2": "core2", "3": "penryn", "4": "nehalem",
                   "5": "nehalem", "6": "westmere"},
             "7": {"3": "core2", "4": "penryn", "5": "nehalem"},
             "6": {"5": "nehalem"}}
    return table.get(series, {}).get(generation)


def _core(match: re.Match[str]) -> str | None:
    # Core i3/i5/i7/i9: the generation is the first digit of a 4-digit model number, the
    # first two of a 5-digit one or of a 4-digit one that starts with 1 (10th-14th: 1165G7);
    # a 3-digit number is the first generation (Nehalem, or Westmere at 32 nm).
    tier, letter, number, suffix = (match.group(1), match.group(2) or "", match.group(3),
                                    match.group(4).upper())
    if len(number) == 3:
        if letter in ("M", "U") or re.fullmatch(r"[MU]", suffix):
            return "westmere"  # Arrandale
        if letter == "X" or "QM" in suffix or "XM" in suffix:
            return "westmere" if number in ("970", "980", "990") else "nehalem"
        if number in ("970", "980", "990"):
            return "westmere"  # Gulftown
        if number[0] in "6" or tier == "3" or number[0] == "5":
            return "westmere"  # Clarkdale
        return "nehalem"
    generation = int(number[:2]) if number[0] == "1" else int(number[0])
    hedt = _core_hedt(tier, number, suffix, generation)
    if hedt:
        return hedt
    if generation == 10:
        return "icelake-client" if re.search(r"G\d", suffix) else "skylake"
    if generation == 11:
        return "rocketlake" if len(number) == 5 and not suffix.startswith("H") else "tigerlake"
    if generation == 8 and number == "8121":
        return "cannonlake"
    return {2: "sandybridge", 3: "ivybridge", 4: "haswell", 5: "broadwell", 6: "skylake",
            7: "skylake", 8: "skylake", 9: "skylake", 12: "alderlake", 13: "raptorlake",
            14: "raptorlake"}.get(generation)


def _core_hedt(tier: str, number: str, suffix: str, generation: int) -> str | None:
    # The high-end desktop parts (i7-3930K, i7-5820K, i9-7900X, i9-10980XE) are the server
    # core of the generation before: their second digit is 8 or 9, their suffix X or K.
    if len(number) != 4 and generation != 10:
        return None
    if 3 <= generation <= 6 and tier == "7" and number[1] in "89" \
            and suffix in ("", "K", "X", "XE"):
        return {3: "sandybridge", 4: "ivybridge", 5: "haswell", 6: "broadwell"}[generation]
    if generation in (7, 9) and number[1] in "89" and suffix in ("X", "XE"):
        return "skylake_avx512"
    if generation == 10 and number[2] == "9" and suffix in ("X", "XE"):
        return "cascadelake"
    return None


def _core_ultra(match: re.Match[str]) -> str | None:
    series, suffix = match.group(1), match.group(2).upper()
    if series == "1":
        return "meteorlake"
    if series == "2":
        if suffix.startswith("V"):
            return "lunarlake"
        return "arrowlake" if suffix in ("H", "U") else "arrowlake_s"
    return "pantherlake" if series == "3" else None


def _core2(match: re.Match[str]) -> str | None:
    # Core 2: the 45 nm parts (Penryn, Wolfdale, Yorkfield) by letter and first digit.
    letter, digit = match.group(1).upper(), match.group(2)
    penryn = {"E": "578", "Q": "89", "T": "689", "X": "9", "L": "9", "P": "689", "U": "39"}
    if letter.startswith("S"):
        return "penryn"
    if letter == "P" and digit == "7":
        return None  # P7xxx: both Merom (65 nm) and Penryn parts
    return "penryn" if digit in penryn.get(letter, "") else "core2"


def _atom_family(match: re.Match[str]) -> str | None:
    # Pentium, Celeron and Atom on Atom cores (J, N, C, Z, E, x5/x7, P), by family number.
    prefix, number = match.group(1).upper(), match.group(2)
    if prefix in ("J", "N") and len(number) == 4:
        return {"18": "silvermont", "19": "silvermont", "28": "silvermont", "29": "silvermont",
                "35": "silvermont", "30": "silvermont", "31": "silvermont", "37": "silvermont",
                "33": "goldmont", "34": "goldmont", "42": "goldmont", "40": "goldmont-plus",
                "41": "goldmont-plus", "50": "goldmont-plus", "45": "tremont", "51": "tremont",
                "60": "tremont", "64": "tremont"}.get(number[:2])
    if prefix == "N" and len(number) == 3 and (number[0] in "45" or
                                               number[0] == "2" and number[1] in "6789"):
        return "bonnell"  # Atom N270, N450, N570
    if prefix == "N" and len(number) in (2, 3):
        return "gracemont"  # Alder Lake-N: N100, N200, N97
    return None


def _atom(match: re.Match[str]) -> str | None:
    model = match.group(1).upper()
    for pattern, uarch in ((r"C2\d{3}", "silvermont"), (r"C3\d{3}", "goldmont"),
                           (r"Z3\d{3}", "silvermont"), (r"E38\d\d", "silvermont"),
                           (r"(?:X[57]-)?Z8\d{3}", "silvermont"),
                           (r"(?:X[57]-)?E39\d\d", "goldmont"), (r"P59\d\d", "tremont"),
                           (r"X6\d{3}", "tremont"), (r"X7\d{3}", "gracemont"),
                           (r"[NDZ]?\d{3,4}", "bonnell")):
        if re.fullmatch(pattern + r"[A-Z]*", model):
            return uarch
    return None


def _celeron_g(match: re.Match[str]) -> str | None:
    number = match.group(1)
    if len(number) == 3:
        return "sandybridge"
    if number[:3] in ("695", "696"):
        return "westmere"  # Clarkdale's G6950, G6960 (the Celeron G6900 is an Alder Lake)
    return {"16": "ivybridge", "20": "ivybridge", "21": "ivybridge", "18": "haswell",
            "32": "haswell", "33": "haswell", "34": "haswell", "39": "skylake", "44": "skylake",
            "45": "skylake", "46": "skylake", "49": "skylake", "54": "skylake", "55": "skylake",
            "56": "skylake", "59": "skylake", "64": "skylake", "65": "skylake", "66": "skylake",
            "69": "alderlake", "74": "alderlake", "73": "alderlake"}.get(number[:2])


def _epyc(match: re.Match[str]) -> str | None:
    # EPYC: the last digit of the model number is the Zen generation (7763: Zen 3).
    return {"1": "zen", "2": "zen2", "3": "zen3", "4": "zen4", "5": "zen5"}.get(match.group(1))


def _threadripper(match: re.Match[str]) -> str | None:
    return {"1": "zen", "2": "zen", "3": "zen2", "5": "zen3", "7": "zen4",
            "9": "zen5"}.get(match.group(1))


def _ryzen(match: re.Match[str]) -> str | None:
    # Ryzen: the first digit is the series. From the 7000 series on, a mobile part's third
    # digit is its architecture (7x20: Zen 2, 7x30/7x35: Zen 3, 7x40/7x45: Zen 4).
    series, third, fourth = match.group(1), match.group(3), match.group(4)
    suffix = match.group(5).upper()
    mobile = bool(re.match(r"(?:U|H|HS|HX|C|E\b)", suffix))
    apu = mobile or suffix.startswith("G")
    if series in "78" and mobile and third in "2345":
        return {"2": "zen2", "3": "zen3", "4": "zen4", "5": "zen4"}[third]
    if series == "5" and suffix.startswith("U") and third + fourth == "00":
        return "zen2"  # Lucienne: 5300U, 5500U, 5700U
    if series == "3":
        return "zen" if apu else "zen2"  # Picasso APUs are Zen+
    return {"1": "zen", "2": "zen", "4": "zen2", "5": "zen3", "6": "zen3", "7": "zen4",
            "8": "zen4", "9": "zen5"}.get(series)


def _amd_fx(match: re.Match[str]) -> str | None:
    number, suffix = match.group(1), match.group(2).upper()
    if number[0] == "7":
        return "steamroller"  # Kaveri
    if suffix.startswith("P"):
        return "excavator"
    if number[1] == "1":
        return "bulldozer"
    return "piledriver" if number[1] in "35" else None


def _opteron(match: re.Match[str]) -> str | None:
    # Opteron: 1xxx/2xxx/8xxx by generation (2: K8 revision F, 3-4: K10), 3xxx/4xxx/6xxx by
    # family (1: K10, 2: Bulldozer, 3: Piledriver).
    number = match.group(1)
    if len(number) == 3:
        return None  # a K8 with or without SSE3 (by revision): not said
    if number[0] in "128":
        return {"2": "k8-sse3", "3": "k10", "4": "k10"}.get(number[1])
    if number[0] in "346":
        return {"1": "k10", "2": "bulldozer", "3": "piledriver"}.get(number[1])
    return None


def _amd_apu(match: re.Match[str]) -> str | None:
    # AMD's A-series APUs: the first digit is the generation (3: Llano, 4-6: Trinity and
    # Richland, 7: Kaveri, 8-9: Carrizo and Bristol Ridge); the low-power parts of the same
    # numbers are Jaguar and Puma cores (A4-5000, A6-6310, A8-7410; the 1000s: Temash).
    pro, tier, number, suffix = (bool(match.group(1)), match.group(2), match.group(3),
                                 match.group(4).upper())
    if "MICRO" in match.group(0).upper() or number[0] == "1":
        return "btver2"  # Mullins, Temash
    if pro and number[0] in "34567":
        return None  # the PRO parts of these numbers mix Puma, Excavator and Steamroller
    if number[0] == "3":
        return "k10"
    if number[0] == "5" and tier in ("4", "6") and re.fullmatch(r"5[0-2][05]0", number) \
            and not suffix:
        return "btver2"  # Kabini
    if re.fullmatch(r"6[2-4][15]0", number) or re.fullmatch(r"7[2-4]10", number):
        return "btver2"  # Beema, Carrizo-L
    if number[0] in "456":
        return "piledriver"
    if number[0] == "7":
        if number == "7300":
            return None  # a Richland sold with the Kaveris
        return "excavator" if number.endswith("80") else "steamroller"  # A8-7680: Carrizo
    if number[0] == "8":
        return "steamroller" if number.endswith("50") else "excavator"  # A10-8750: Kaveri
    return "excavator" if number[0] == "9" else None


def _amd_athlon_x(match: re.Match[str]) -> str | None:
    # Athlon X2/X4 on the FM sockets, by the first digit: 3/7 Piledriver, 4/8 Steamroller
    # (845: Excavator), 9 Excavator; the 2s and 6s are K10 (Regor, Propus).
    number = match.group(1)
    if number == "845":
        return "excavator"
    return {"2": "k10", "6": "k10", "3": "piledriver", "7": "piledriver", "4": "steamroller",
            "8": "steamroller", "9": "excavator"}.get(number[0])


def _mobile_pentium(match: re.Match[str]) -> str | None:
    # Celeron and Pentium of the Core generations, by their model number: a 3-digit 8xx/9xx
    # (and B8xx/B9xx) is a Sandy Bridge, P4xxx/P6xxx an Arrandale (Westmere); a 4-digit
    # number by its first digits.
    line, letter, number = match.group(1).casefold(), match.group(2).upper(), match.group(3)
    if letter == "P" and len(number) == 4:
        return "westmere"
    if letter in ("", "B") and len(number) == 3:
        if line == "celeron" and not letter and number[0] in "2459":
            return "penryn" if number[0] == "9" else "core2"  # Conroe-L, Merom-L; 900, 925
        return "sandybridge" if number[0] in ("8", "9") else None
    if letter or len(number) != 4:
        return None
    if line == "celeron":
        table = {"1": "ivybridge", "2": "haswell", "32": "broadwell", "38": "skylake",
                 "39": "skylake", "4": "skylake", "5": "skylake", "6": "tigerlake",
                 "7": "alderlake"}
    else:
        table = {"2": "ivybridge", "35": "haswell", "36": "haswell", "38": "broadwell",
                 "4": "skylake", "5": "skylake", "6": "skylake", "7": "tigerlake",
                 "8": "alderlake"}
    return table.get(number[:2]) or table.get(number[0])


#: The vendors' model-number schemes, tried in order on a name as read by the printed-name
#: rules (``Intel Xeon Gold 6148``, ``AMD EPYC 7763``, ``Intel Core i7-1165G7``). Each row:
#: a pattern (searched, case aside) and what picks the microarchitecture from its match.
X86_MODEL_SCHEMES: tuple[tuple[str, _Pick], ...] = (
    (r"\bXeon (?:Platinum|Gold|Silver|Bronze) (\d)(\d)(\d\d)([A-Z+]*)(?!\w)", _xeon_scalable),
    (r"\bXeon (?:6 )?(6\d{3})([PE])\b", lambda m: "graniterapids" if m.group(2).upper() == "P"
        else "sierraforest"),
    (r"\bXeon Max (9\d{3})\b", _fixed("sapphirerapids")),
    (r"\bXeon (?:CPU )?E([357])-?\s?\d{4}[A-Z]*(?: v(\d))?\b", _xeon_e),
    (r"\bXeon (?:CPU )?E-2(\d)\d\d[A-Z]*\b", _by({"1": "skylake", "2": "skylake",
                                                  "3": "rocketlake", "4": "raptorlake"})),
    (r"\bXeon (?:CPU )?W-(\d\d)\d{2,3}[A-Z]*\b", _by({"21": "skylake_avx512",
                                                      "22": "cascadelake", "32": "cascadelake",
                                                      "33": "icelake-server", "12": "skylake",
                                                      "13": "rocketlake", "10": "skylake",
                                                      "11": "tigerlake"})),
    (r"\bXeon w[3579]-[23][45]\d\d[A-Z]*\b", _fixed("sapphirerapids")),
    (r"\bXeon (?:CPU )?D-(\d\d)\d\d[A-Z]*\b", _by({"15": "broadwell", "16": "broadwell",
                                                   "21": "skylake_avx512",
                                                   "17": "icelake-server",
                                                   "27": "icelake-server",
                                                   "18": "icelake-server",
                                                   "28": "icelake-server"})),
    (r"\bXeon Phi (?:CPU )?72(\d\d)\b", lambda m: "knm" if m.group(1) in ("35", "85", "95")
        else "mic_knl"),
    (r"\bXeon (?:CPU )?[XEWL](\d)(\d)\d\d[A-Z]?\b", _xeon_numbered),
    (r"\bXeon (?:CPU )?(?:30[4-8]0|51[1-6]0)\b", _fixed("core2")),  # Conroe, Woodcrest
    (r"\bCore\s+Ultra [3579] (\d)\d\d([A-Z]*)\b", _core_ultra),
    (r"\bCore\s+[3579] (\d)\d\d[A-Z]*\b", _fixed("raptorlake")),
    (r"\bCore(?:\s+i[3579])?[\s-]+i?([3579])?-?N(\d{2,3})\b", _fixed("gracemont")),
    (r"\bCore\s+i([3579])(?:\s+CPU)?[\s-]+(?:([A-Z])\s+)?(\d{3,5})([A-Z]*\d?)\b", _core),
    (r"\bCore\s*2\s+(?:(?:Duo|Quad|Extreme|Solo)\s+)?(?:CPU\s+)?([A-Z]{1,2})(\d)\d{3}\b",
     _core2),
    (r"\bCore\s+(?:i[357]|m[357]|M)\s?-?\s?(\d)Y\d\d\b", _by({"5": "broadwell", "6": "skylake",
                                                              "7": "skylake", "8": "skylake"})),
    (r"\bCore\s*2 (?:Duo |Quad )?(?:CPU\s+)?[46]\d{3}\b", _fixed("core2")),  # E4300 as "4300"
    (r"\bCore (?:Duo|Solo)\b", _fixed("yonah")),
    (r"\bPentium(?: M\b| III| II)", lambda m: None),  # 32-bit only: no x86-64 target
    (r"\bPentium D\b", _fixed("nocona")),
    (r"\bPentium(?: Dual(?:-Core)?)?(?: CPU)? ([ET])(\d)\d{3}\b",
     lambda m: {"T2": "core2", "T3": "core2", "T4": "penryn", "E5": "penryn",
                "E6": "penryn"}.get(m.group(1).upper() + m.group(2))),
    (r"\b(?:Pentium|Celeron)(?: Gold| Silver| CPU| Dual-Core)* G(\d{3,4})[A-Z]*\b", _celeron_g),
    (r"\b(?:Pentium|Celeron|Intel)(?: Gold| Silver| CPU| Processor)* ([JN])(\d{2,4})[A-Z]*\b",
     _atom_family),
    (r"\b(Pentium|Celeron)(?: CPU)? ([BP]?)(\d{3,4})[A-Z]*\b", _mobile_pentium),
    (r"\bAtom(?: CPU| Processor)? ((?:x[567]-)?[A-Z]?\d{3,4}[A-Z]*)\b", _atom),
    (r"\bEPYC (?:Embedded )?\d[0-9A-Z]\d(\d)[A-Z]*\b", _epyc),
    (r"\bThreadripper(?: PRO)? (\d)\d\d\d[A-Z]*\b", _threadripper),
    (r"\bRyzen AI\b", _fixed("zen5")),
    (r"\bRyzen Embedded [RV](\d)\d{3}", _by({"1": "zen", "2": "zen2", "3": "zen3"})),
    (r"\bRyzen Z1\b", _fixed("zen4")),
    (r"\bRyzen(?: PRO)? [3579] 2\d0\b", _fixed("zen4")),  # the 200 series: Hawk Point
    (r"\bRyzen(?: PRO)? [3579](?: PRO)? (\d)(\d)(\d)(\d)([A-Z0-9]*)\b", _ryzen),
    (r"\bAthlon(?: PRO| Silver| Gold)? (?:\d{3}(?:GE|G|U)|3\d{3}[A-Z]+)\b", _fixed("zen")),
    (r"\bFX\s*-?\s*(\d{4})([A-Z]*)\b", _amd_fx),
    (r"\b(PRO )?A(4|6|8|9|10|12)(?: PRO| Micro)?-(\d{4})([A-Z]*)\b", _amd_apu),
    (r"\bAthlon X[24] (\d{3})K?\b", _amd_athlon_x),
    (r"\bE1-2\d{3}\b|\bE[12]-[4-7]\d{3}\b", _fixed("btver2")),  # Kabini, Beema, Carrizo-L
    (r"\bE-?[2-4][0-5]0[A-Z]?\b|\bE1-1\d{3}\b|\bE2-(?:1800|2000)\b|\bG-T\d\d[A-Z]?\b",
     _fixed("btver1")),  # Zacate, Ontario, the Bobcat G-series
    # the G-series SoCs: the first (Kabini, Jaguar) end in A; later letters mix Puma and
    # Excavator parts (GX-215JJ, GX-420GI): not said
    (r"\bGX-\d{3}[A-Z]A\b", _fixed("btver2")),
    (r"\bOpteron X([123])\d{3}", lambda m: "excavator" if m.group(1) == "3" else "btver2"),
    (r"\bAMD V1\d\d\b", _fixed("k10")),  # Champlain
    (r"\bE2-9\d{3}\b", _fixed("excavator")),
    (r"\bOpteron(?: Processor)? (\d{3,4})[A-Z]*\b", _opteron),
    (r"\bPhenom\b|\bAthlon II\b|\bTurion II\b|\bSempron (?:\d{3}|M1\d\d|X2 \d{3})\b",
     _fixed("k10")),
    (r"\bSempron \d{4} APU\b", _fixed("btver2")),
    # A dual-core K8 has SSE3 (revision E and later); a single core may not: not said.
    (r"\b(?:Athlon ?64 X2|Athlon 64 Dual|Turion 64 X2|Turion Neo X2|Sempron Dual)\b|"
     r"\bDual[- ]Core AMD Opteron\b", _fixed("k8-sse3")),
    (r"\bHygon C86\b", _fixed("zen")),  # Dhyana: a licensed Zen
    (r"^AMD EPYC(?: Processor)?(?: \(with IBPB\))?$", _fixed("zen")),  # QEMU's "EPYC"
)

#: Microarchitectures as hypervisors (QEMU's CPU models) and vendors name them in a printed
#: name: ``Intel Xeon Processor (Cascadelake)``, ``AMD EPYC-Rome Processor``.
CODENAMES: dict[str, str] = {
    "conroe": "core2", "penryn": "penryn", "nehalem": "nehalem", "westmere": "westmere",
    "sandybridge": "sandybridge", "ivybridge": "ivybridge", "haswell": "haswell",
    "broadwell": "broadwell", "skylakeclient": "skylake", "skylake": "skylake",
    "skylakeserver": "skylake_avx512", "cascadelake": "cascadelake",
    "cascadelakeserver": "cascadelake", "cooperlake": "cooperlake",
    "icelake": "icelake-server", "icelakeserver": "icelake-server",
    "icelakeclient": "icelake-client", "sapphirerapids": "sapphirerapids",
    "emeraldrapids": "emeraldrapids", "graniterapids": "graniterapids",
    "sierraforest": "sierraforest", "snowridge": "tremont", "denverton": "goldmont",
    "naples": "zen", "rome": "zen2", "milan": "zen3", "genoa": "zen4", "bergamo": "zen4",
    "siena": "zen4", "turin": "zen5", "opterong1": "k8", "opterong2": "k8",
    "opterong3": "k10", "opterong4": "bulldozer", "opterong5": "piledriver",
}


def x86_microarchitecture(reading: str) -> str | None:
    """The microarchitecture an x86 CPU's name says by its vendor's scheme, or None."""
    for pattern, pick in X86_MODEL_SCHEMES:
        match = re.search(pattern, reading, re.IGNORECASE)
        if match:
            found = pick(match)
            if found:
                return found
    if not re.search(r"\b(?:Intel|AMD|EPYC|Xeon|Core|Opteron)\b", reading, re.IGNORECASE):
        return None
    # A hypervisor's CPU model: the codename in the last parentheses (before a comma) or after
    # "EPYC-"; the whole of it, else its first word ("Nehalem Class Core i7").
    named = [inner.split(",")[0] for inner in re.findall(r"\(([^()]*)\)", reading)[-1:]]
    named += re.findall(r"\bEPYC-([A-Za-z]+)", reading)
    for text in named:
        for key in (text, re.split(r"[\s/]", text.strip())[0]):
            uarch = CODENAMES.get(re.sub(r"[\s\-_]", "", key).casefold())
            if uarch:
                return uarch
    return None


# ---- Arm CPUs --------------------------------------------------------------------------------

#: A line of ``/proc/cpuinfo`` that gives a field of the main ID register (MIDR).
_CPUINFO_FIELD = re.compile(r"CPU\s+(implementer|variant|part)\s*:\s*(0x[0-9a-f]+)",
                            re.IGNORECASE)
#: The MIDR as its value (``/sys/devices/system/cpu/cpu0/regs/identification/midr_el1``).
_MIDR_VALUE = re.compile(r"(?:MIDR(?:_EL1)?\s*[:=]?\s*)?0x(?:0{8})?([0-9a-f]{8})", re.IGNORECASE)


def midr_fields(text: str) -> list[tuple[str | None, int | None, str]] | None:
    """Each CPU's (implementer, variant, part) as ``/proc/cpuinfo`` gives them (its ``CPU
    implementer``, ``CPU variant`` and ``CPU part`` lines; one CPU after another), or as a
    MIDR_EL1 value (``0x00000000413fd0c1``); None for text that is neither. An implementer
    or variant the text leaves out is None."""
    value = _MIDR_VALUE.fullmatch(text.strip())
    if value:
        midr = int(value.group(1), 16)
        if midr >> 24 == 0:
            return None
        return [(f"0x{midr >> 24:02x}", (midr >> 20) & 0xF, f"0x{(midr >> 4) & 0xFFF:03x}")]
    found: list[tuple[str | None, int | None, str]] = []
    implementer: str | None = None
    variant: int | None = None
    for field, number in _CPUINFO_FIELD.findall(text):
        number = int(number, 16)
        if field.casefold() == "implementer":
            implementer = f"0x{number:02x}"
        elif field.casefold() == "variant":
            variant = number
        else:
            found.append((implementer, variant, f"0x{number:03x}"))
    return found or None


#: A line of ``lscpu`` or ``/proc/cpuinfo`` that names the CPU or its vendor.
_CPU_FIELD = re.compile(r"^\s*(BIOS\s+)?(Vendor ID|vendor_id|Model name|model name)\s*:\s*(.*?)\s*$",
                        re.IGNORECASE | re.MULTILINE)


def cpu_fields(text: str) -> dict[str, str] | None:
    """What ``lscpu`` (``Vendor ID:``, ``Model name:``, their ``BIOS`` lines) or
    ``/proc/cpuinfo`` (``vendor_id``, ``model name``) prints of a CPU, as ``{"vendor": ...,
    "model": ..., "bios vendor": ..., "bios model": ...}``; None for text without them."""
    out: dict[str, str] = {}
    for bios, field, value in _CPU_FIELD.findall(text):
        key = ("bios " if bios else "") + ("vendor" if field.casefold().startswith("vendor")
                                           else "model")
        if value:
            out.setdefault(key, value)
    return out or None


#: What a printed Arm CPU name says besides its vendor and core: the kernel's or firmware's
#: words, a stepping or version (``v2.2``, ``rev 1``), the kernel's mode (``(v8l)``).
_ARM_NOISE = re.compile(r"\b(?:CPU|Processor|\d+-Core)\b|\bv\d+(?:\.\d+)+\b|\brev\s+\w+\b|"
                        r"\(\w+\)", re.IGNORECASE)

#: Vendors that name Arm CPUs they sell but do not implement (their products' cores are
#: another implementer's): ``AWS Graviton2``, ``Huawei Kunpeng 920``.
ARM_VENDOR_WORDS = ("AWS", "Amazon", "Huawei")

#: Arm server products by the core their vendor says they have, named as lscpu names the
#: core (util-linux's table); the table of LLVM's host detection says which CPU that is.
#: AWS's own table (the Graviton processors) is read from AWS's repository instead.
ARM_PRODUCTS: dict[str, str] = {
    # No table of Ampere's in reach says it; what machines and the libraries that read them
    # say does: lscpu on an Ampere Altra prints "Model name: Neoverse-N1"
    # (https://github.com/archspec/archspec-json/issues/41), pytorch/cpuinfo reads "the
    # Ampere Altra [as] a cpu_uarch_neoverse_n1" (https://github.com/pytorch/cpuinfo/pull/268),
    # OSACA models the "Neoverse N1 (Ampere Altra Max)" (https://github.com/RRZE-HPC/OSACA/issues/99).
    "Altra": "Neoverse-N1", "Altra Max": "Neoverse-N1",
}


def arm_words(reading: str, vendors: tuple[str, ...]) -> list[tuple[str | None, list[str]]]:
    """The ways a printed Arm CPU name may name its core: (vendor, the words after it), for
    the name as it starts and after each vendor word in it (``Snapdragon X Elite - X1E78100 -
    Qualcomm Oryon``: Qualcomm's ``Oryon``); the kernel's words, steppings and versions left
    out."""
    words = [w for w in re.split(r"[\s,]+", _ARM_NOISE.sub(" ", reading)) if w and w != "-"]
    lowered = [v.casefold() for v in vendors]
    out: list[tuple[str | None, list[str]]] = []
    start = 0
    while start < len(words) and words[start].casefold() in lowered:
        start += 1
    if start < len(words):
        out.append((words[start - 1] if start else None, words[start:]))
    for index, word in enumerate(words[start:], start):
        if word.casefold() in lowered and index + 1 < len(words):
            out.append((word, words[index + 1:]))
    return out


# ---- Apple chips -------------------------------------------------------------------------------

_APPLE_CHIP = re.compile(r"Apple\s+M(\d+)(?:\s+(?:Pro|Max|Ultra))?", re.IGNORECASE)


def apple_chip(reading: str) -> int | None:
    """The generation of an Apple chip as macOS prints its CPU (``sysctl -n
    machdep.cpu.brand_string``: ``Apple M1 Max`` is an M1): a chip's Pro, Max and Ultra have
    the generation's cores (lscpu names them so: ``Firestorm-M1-Max``)."""
    match = _APPLE_CHIP.fullmatch(reading.strip())
    return int(match.group(1)) if match else None


# ---- names of no architecture ------------------------------------------------------------------

#: Names that say no architecture, and why; tried in order on the name as read.
_NO_ARCHITECTURE: tuple[tuple[str, str], ...] = (
    (r"(?:QEMU Virtual CPU|QEMU TCG CPU|Common (?:32-bit )?KVM(?: processor)?)\b.*",
     "a hypervisor's generic CPU model (QEMU's qemu64, kvm64) names no microarchitecture; "
     "the host's CPU, or a named CPU model, does"),
    (r"(?:Intel|AMD|Apple|Genuine Intel|Authentic AMD)"
     r"(?: (?:Xeon|Core|Pentium|Celeron|Atom|EPYC|Ryzen|Opteron|Athlon))?",
     "the vendor's brand without a model number (a cloud VM's CPU often reads `Intel(R) "
     "Xeon(R) CPU @ 2.20GHz`) says no generation; lscpu's `CPU family` and `Model` lines do"),
    (r"(?:ARMv\d+|AArch64)(?: Processor)?(?: rev \d+ \(\w+\))?",
     "the kernel's name of an Arm CPU names its instruction set only; /proc/cpuinfo's `CPU "
     "implementer` and `CPU part` lines name the core"),
)


def why_no_architecture(reading: str) -> str | None:
    """Why a name, as read, says no architecture (a hypervisor's generic model, a brand
    without a model number, an instruction set), or None."""
    for pattern, reason in _NO_ARCHITECTURE:
        if re.fullmatch(pattern, reading.strip(), re.IGNORECASE):
            return reason
    return None
