import dagre from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
import type { Lineage, LineageNode, RemoteRelative } from '../api/lineage';
import { LINEAGE } from '../strings';

export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 56;
/** A relative on another node carries one more line: the node's name and its verification. */
export const REMOTE_NODE_HEIGHT = 76;
/** …and is wider, for the mark that names the node ("verified on north-farm"). */
export const REMOTE_NODE_WIDTH = 240;

export interface FamilyNodeData extends Record<string, unknown> {
  plant: LineageNode;
  current: boolean;
}

/** A parent on another node: drawn above the plant here it is the parent of, with the node's name. */
export interface RemoteNodeData extends Record<string, unknown> {
  relative: RemoteRelative;
}

/** The graph id of a relative on another node: never a plant id of this node (those start with `plt_`). */
export const remoteNodeId = (r: RemoteRelative) => `remote:${r.node.peer}:${r.plantId}`;

/** Every plant of the lineage once: ancestors, the plant, descendants. */
export function familyOf(lineage: Lineage): LineageNode[] {
  const seen = new Map<string, LineageNode>();
  for (const p of [...lineage.ancestors, lineage.plant, ...lineage.descendants]) seen.set(p.id, p);
  return [...seen.values()];
}

/** Nodes placed top-down by generation (dagre's layered layout) and one edge per parent, labelled with its type. */
export function layoutFamily(lineage: Lineage): {
  nodes: (Node<FamilyNodeData, 'plant'> | Node<RemoteNodeData, 'remote'>)[];
  edges: Edge[];
} {
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
  const remote = (lineage.remoteRelatives ?? []).filter((r) => ids.has(r.childId));
  for (const r of remote) {
    const id = remoteNodeId(r);
    g.setNode(id, { width: REMOTE_NODE_WIDTH, height: REMOTE_NODE_HEIGHT });
    g.setEdge(id, r.childId);
    edges.push({
      id: `${id}->${r.childId}`,
      source: id,
      target: r.childId,
      label: LINEAGE.propagation(r.propagationType),
      labelBgPadding: [4, 2],
      style: { strokeWidth: 2, strokeDasharray: '6 4' },
    });
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
    } satisfies Node<FamilyNodeData, 'plant'>;
  });
  const remoteNodes = remote.map((r) => {
    const id = remoteNodeId(r);
    const at = g.node(id);
    return {
      id,
      type: 'remote',
      position: { x: at.x - REMOTE_NODE_WIDTH / 2, y: at.y - REMOTE_NODE_HEIGHT / 2 },
      data: { relative: r },
      ariaLabel: LINEAGE.remoteNode(r.commonName ?? r.plantId, r.node.peer, r.verification.state),
    } satisfies Node<RemoteNodeData, 'remote'>;
  });
  return { nodes: [...remoteNodes, ...nodes], edges };
}
