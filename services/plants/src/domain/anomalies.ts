import type { AnomalyKind } from '@rootline/contracts/agents';
import { haversineKm } from '@rootline/domain';

/** Parent–child distance above which an offspring is flagged as suspicious. */
export const DISTANT_OFFSPRING_KM = 1000;

/** What the rules need to know about a plant. */
export interface LinkPlant {
  id: string;
  parentId: string | null;
  generation: number;
  registeredAt: string;
  latitude: number | null;
  longitude: number | null;
}

/** One finding: the plant, its parent when it exists, and why. */
export interface Finding {
  kind: AnomalyKind;
  plantId: string;
  parentId: string | null;
  reason: string;
}

/**
 * The anomalies of one plant and its parent (`parent` is undefined when the plant's parent id names no plant):
 * - orphaned-parent: the parent id names no plant;
 * - child-before-parent: the plant was registered before its parent;
 * - generation-jump: the generation is not the parent's + 1, or a plant without parent is not generation 0;
 * - distant-offspring: plant and parent both disclose a location more than DISTANT_OFFSPRING_KM apart.
 * Plants made through the API never break the first three rules; they catch imported or damaged records.
 */
export function detectAnomalies(plant: LinkPlant, parent: LinkPlant | undefined): Finding[] {
  const findings: Finding[] = [];
  if (plant.parentId === null) {
    if (plant.generation !== 0) {
      findings.push({
        kind: 'generation-jump',
        plantId: plant.id,
        parentId: null,
        reason: `Plant ${plant.id} has no parent but is generation ${plant.generation} (expected 0)`,
      });
    }
    return findings;
  }
  if (!parent) {
    return [
      {
        kind: 'orphaned-parent',
        plantId: plant.id,
        parentId: null,
        reason: `Plant ${plant.id} names parent ${plant.parentId}, which does not exist`,
      },
    ];
  }
  const link = { plantId: plant.id, parentId: parent.id };
  if (Date.parse(plant.registeredAt) < Date.parse(parent.registeredAt)) {
    findings.push({
      kind: 'child-before-parent',
      ...link,
      reason: `Plant ${plant.id} was registered at ${plant.registeredAt}, before its parent ${parent.id} (${parent.registeredAt})`,
    });
  }
  if (plant.generation !== parent.generation + 1) {
    findings.push({
      kind: 'generation-jump',
      ...link,
      reason: `Plant ${plant.id} is generation ${plant.generation} but its parent ${parent.id} is generation ${parent.generation} (expected ${parent.generation + 1})`,
    });
  }
  if (plant.latitude !== null && plant.longitude !== null && parent.latitude !== null && parent.longitude !== null) {
    const km = haversineKm(
      { latitude: parent.latitude, longitude: parent.longitude },
      { latitude: plant.latitude, longitude: plant.longitude },
    );
    if (km > DISTANT_OFFSPRING_KM) {
      findings.push({
        kind: 'distant-offspring',
        ...link,
        reason: `Plant ${plant.id} is ${Math.round(km)} km from its parent ${parent.id} (more than ${DISTANT_OFFSPRING_KM} km)`,
      });
    }
  }
  return findings;
}
