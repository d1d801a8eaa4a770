/**
 * Scientific names as users type them, checked and normalised. No maintained package of the npm registry ships a
 * plant checklist of a reasonable size (the World Checklist of Vascular Plants is a download of hundreds of
 * megabytes, not a package), so this holds the crops and herbs growers register most, with the accepted name,
 * author and family of the World Checklist of Vascular Plants (Plants of the World Online), and the synonyms still
 * in common use. Names outside it are only tidied (`tidyScientificName`) and recorded as given (ADR 118).
 */
interface ChecklistEntry {
  name: string;
  author: string;
  family: string;
  synonyms?: readonly string[];
}

const ENTRIES: readonly ChecklistEntry[] = [
  { name: 'Solanum lycopersicum', author: 'L.', family: 'Solanaceae', synonyms: ['Lycopersicon esculentum'] },
  { name: 'Solanum tuberosum', author: 'L.', family: 'Solanaceae' },
  { name: 'Solanum melongena', author: 'L.', family: 'Solanaceae' },
  { name: 'Capsicum annuum', author: 'L.', family: 'Solanaceae' },
  { name: 'Ocimum basilicum', author: 'L.', family: 'Lamiaceae' },
  { name: 'Mentha spicata', author: 'L.', family: 'Lamiaceae' },
  { name: 'Mentha × piperita', author: 'L.', family: 'Lamiaceae' },
  { name: 'Salvia rosmarinus', author: 'Spenn.', family: 'Lamiaceae', synonyms: ['Rosmarinus officinalis'] },
  { name: 'Salvia officinalis', author: 'L.', family: 'Lamiaceae' },
  { name: 'Thymus vulgaris', author: 'L.', family: 'Lamiaceae' },
  { name: 'Origanum vulgare', author: 'L.', family: 'Lamiaceae' },
  { name: 'Lavandula angustifolia', author: 'Mill.', family: 'Lamiaceae', synonyms: ['Lavandula officinalis'] },
  { name: 'Lactuca sativa', author: 'L.', family: 'Asteraceae' },
  { name: 'Helianthus annuus', author: 'L.', family: 'Asteraceae' },
  { name: 'Cucumis sativus', author: 'L.', family: 'Cucurbitaceae' },
  { name: 'Cucurbita pepo', author: 'L.', family: 'Cucurbitaceae' },
  { name: 'Fragaria × ananassa', author: '(Duchesne ex Weston) Duchesne ex Rozier', family: 'Rosaceae' },
  { name: 'Malus domestica', author: '(Suckow) Borkh.', family: 'Rosaceae', synonyms: ['Malus pumila'] },
  { name: 'Spinacia oleracea', author: 'L.', family: 'Amaranthaceae' },
  { name: 'Beta vulgaris', author: 'L.', family: 'Amaranthaceae' },
  { name: 'Brassica oleracea', author: 'L.', family: 'Brassicaceae' },
  { name: 'Raphanus sativus', author: 'L.', family: 'Brassicaceae' },
  { name: 'Eruca vesicaria', author: '(L.) Cav.', family: 'Brassicaceae', synonyms: ['Eruca sativa'] },
  { name: 'Daucus carota', author: 'L.', family: 'Apiaceae' },
  { name: 'Petroselinum crispum', author: '(Mill.) Fuss', family: 'Apiaceae' },
  { name: 'Coriandrum sativum', author: 'L.', family: 'Apiaceae' },
  { name: 'Anethum graveolens', author: 'L.', family: 'Apiaceae' },
  { name: 'Allium cepa', author: 'L.', family: 'Amaryllidaceae' },
  { name: 'Allium sativum', author: 'L.', family: 'Amaryllidaceae' },
  { name: 'Allium schoenoprasum', author: 'L.', family: 'Amaryllidaceae' },
  { name: 'Zea mays', author: 'L.', family: 'Poaceae' },
  { name: 'Triticum aestivum', author: 'L.', family: 'Poaceae' },
  { name: 'Oryza sativa', author: 'L.', family: 'Poaceae' },
  { name: 'Phaseolus vulgaris', author: 'L.', family: 'Fabaceae' },
  { name: 'Lathyrus oleraceus', author: 'Lam.', family: 'Fabaceae', synonyms: ['Pisum sativum'] },
  { name: 'Glycine max', author: '(L.) Merr.', family: 'Fabaceae' },
  { name: 'Cannabis sativa', author: 'L.', family: 'Cannabaceae' },
  { name: 'Vitis vinifera', author: 'L.', family: 'Vitaceae' },
  { name: 'Citrus × limon', author: '(L.) Osbeck', family: 'Rutaceae', synonyms: ['Citrus limon'] },
  { name: 'Coffea arabica', author: 'L.', family: 'Rubiaceae' },
  { name: 'Camellia sinensis', author: '(L.) Kuntze', family: 'Theaceae' },
  { name: 'Theobroma cacao', author: 'L.', family: 'Malvaceae' },
  { name: 'Ficus carica', author: 'L.', family: 'Moraceae' },
  { name: 'Olea europaea', author: 'L.', family: 'Oleaceae' },
  { name: 'Aloe vera', author: '(L.) Burm.f.', family: 'Asphodelaceae', synonyms: ['Aloe barbadensis'] },
  { name: 'Monstera deliciosa', author: 'Liebm.', family: 'Araceae' },
];

const RANKS = new Set(['subsp.', 'var.', 'f.', 'cv.']);

/**
 * A name in the form the codes of nomenclature write it: the genus capitalised, epithets in lower case, one space
 * between words, the hybrid sign × (for "x" or "X" before an epithet), rank abbreviations with their dot
 * ("ssp" → "subsp."). "solanum  LYCOPERSICUM" → "Solanum lycopersicum".
 */
export function tidyScientificName(name: string): string {
  const words = name.trim().split(/\s+/);
  // A cultivar name ('San Marzano') and whatever follows it keep their capitals.
  const quote = words.findIndex((w, i) => i > 0 && (w.startsWith("'") || w.startsWith('‘')));
  return words
    .map((w, i) => {
      if (quote > 0 && i >= quote) return w;
      if (i === 0) return w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
      const lower = w.toLowerCase();
      if (lower === 'x' || lower === '×') return '×';
      if (lower === 'ssp' || lower === 'ssp.' || lower === 'subsp') return 'subsp.';
      if (lower === 'var') return 'var.';
      if (RANKS.has(lower)) return lower;
      return lower;
    })
    .join(' ');
}

const BY_NAME = new Map<string, { entry: ChecklistEntry; synonym: boolean }>();
for (const entry of ENTRIES) {
  BY_NAME.set(entry.name.toLowerCase(), { entry, synonym: false });
  for (const s of entry.synonyms ?? []) BY_NAME.set(s.toLowerCase(), { entry, synonym: true });
}

/** The outcome of checking a name. */
export interface CheckedName {
  /** The accepted name when the checklist knows it (a synonym is replaced), else the name tidied. */
  name: string;
  /** From the checklist; undefined for a name it does not hold. */
  taxon?: { author: string; family: string; givenName: string | null };
}

/**
 * A scientific name checked against the checklist: its species part (the first two words, or three with a hybrid
 * sign) is looked up; an infraspecific rank or a cultivar after it is kept.
 */
export function checkScientificName(name: string): CheckedName {
  const tidy = tidyScientificName(name);
  const words = tidy.split(' ');
  const speciesWords = words[1] === '×' ? 3 : 2;
  const species = words.slice(0, speciesWords).join(' ');
  const rest = words.slice(speciesWords).join(' ');
  const found = BY_NAME.get(species.toLowerCase());
  if (!found) return { name: tidy };
  const accepted = rest ? `${found.entry.name} ${rest}` : found.entry.name;
  return {
    name: accepted,
    taxon: { author: found.entry.author, family: found.entry.family, givenName: found.synonym ? tidy : null },
  };
}
