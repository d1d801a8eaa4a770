import dagre from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
import type { Lineage, LineageNode } from '../api/lineage';
import { LINEAGE } from '../strings';

export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 56;

export interface FamilyNodeData extends Record<string, unknown> {
  plant: LineageNode;
  current: boolean;
}

/** Every plant of the lineage once: ancestors, the plant, descendants. */
export function familyOf(lineage: Lineage): LineageNode[] {
  const seen = new Map<string, LineageNode>();
  for (const p of [...lineage.ancestors, lineage.plant, ...lineage.descendants]) seen.set(p.id, p);
  return [...seen.values()];
}

/** Nodes placed top-down by generation (dagre's layered layout) and one edge per parent, labelled with its type. */
export function layoutFamily(lineage: Lineage): { nodes: Node<FamilyNodeData>[]; edges: Edge[] } {
  const family = familyOf(lineage);
  const ids = new Set(family.map((p) => p.id));
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 70 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const p of family) g.setNode(p.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const edges: Edge[] = [];
  for (const p of family) {
    if (p.parentId && ids.has(p.parentId)) {
      g.setEdge(p.parentId, p.id);
      edges.push({
        id: `${p.parentId}->${p.id}`,
        source: p.parentId,
        target: p.id,
        label: p.propagationType ? LINEAGE.propagation(p.propagationType) : '',
        labelBgPadding: [4, 2],
        style: { strokeWidth: 2 },
      });
    }
  }
  dagre.layout(g);
  const nodes = family.map((p) => {
    const at = g.node(p.id);
    return {
      id: p.id,
      type: 'plant',
      position: { x: at.x - NODE_WIDTH / 2, y: at.y - NODE_HEIGHT / 2 },
      data: { plant: p, current: p.id === lineage.plant.id },
      ariaLabel: LINEAGE.node(p.commonName, p.generation, p.id === lineage.plant.id),
    } satisfies Node<FamilyNodeData>;
  });
  return { nodes, edges };
}
