import '@xyflow/react/dist/style.css';
import { Background, Controls, Handle, type Node, type NodeProps, Position, ReactFlow } from '@xyflow/react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ErrorAlert, Loading } from '../../../components/status';
import { useLineage } from '../api/lineage';
import { LINEAGE } from '../strings';
import {
  type FamilyNodeData,
  familyOf,
  layoutFamily,
  NODE_HEIGHT,
  NODE_WIDTH,
  REMOTE_NODE_HEIGHT,
  REMOTE_NODE_WIDTH,
  type RemoteNodeData,
} from './layout';

const S = LINEAGE;

function PlantNode({ data }: NodeProps<Node<FamilyNodeData>>) {
  return (
    <div
      className={data.current ? 'family-node current' : 'family-node'}
      style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <strong title={data.plant.commonName}>{data.plant.commonName}</strong>
      <span>{S.generation(data.plant.generation)}</span>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

/** A parent on another node: its name, the node's name, and whether it is verified there (a fork is marked). */
function RemoteNode({ data }: NodeProps<Node<RemoteNodeData>>) {
  const r = data.relative;
  const state = r.verification.state;
  return (
    <div className={`family-node remote ${state}`} style={{ width: REMOTE_NODE_WIDTH, height: REMOTE_NODE_HEIGHT }}>
      <strong title={r.commonName ?? r.plantId}>{r.commonName ?? r.plantId}</strong>
      <span>{S.onNode(r.node.peer)}</span>
      <span className="verification" title={S.verification(r.node.peer, state)}>
        <span aria-hidden="true">{state === 'verified' ? '✓ ' : state === 'fork' ? '⚠ ' : ''}</span>
        {S.verification(r.node.peer, state)}
      </span>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const NODE_TYPES = { plant: PlantNode, remote: RemoteNode };
/** Room around the family when fitted: a share of the box on each side (the zoom buttons sit in the top one). */
const FIT_VIEW = { padding: { top: '56px', right: 0.1, bottom: 0.1, left: 0.1 }, maxZoom: 1.25 } as const;

/** The plant's family as an interactive graph (pan, zoom, click to move), and the same as a list of links. */
export function LineageGraph({ plantId, onOpen }: { plantId: string; onOpen: (plantId: string) => void }) {
  const lineage = useLineage(plantId);
  const graph = useMemo(() => (lineage.data ? layoutFamily(lineage.data) : null), [lineage.data]);
  return (
    <section className="card" aria-labelledby="lineage-heading">
      <h2 id="lineage-heading">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      {lineage.isPending ? (
        <Loading />
      ) : lineage.error ? (
        <ErrorAlert error={lineage.error} />
      ) : (
        <>
          <section
            className="graph"
            aria-label={S.graph}
            data-nodes={graph!.nodes.length}
            data-edges={graph!.edges.length}
          >
            <ReactFlow
              nodes={graph!.nodes}
              edges={graph!.edges}
              nodeTypes={NODE_TYPES}
              // A relative on another node is not a page of this node.
              onNodeClick={(_e, node) => node.type === 'plant' && onOpen(node.id)}
              nodesDraggable={false}
              nodesConnectable={false}
              // The whole family in view with room around it, and the zoom buttons in a corner kept clear of it.
              fitView
              fitViewOptions={FIT_VIEW}
              minZoom={0.2}
              proOptions={{ hideAttribution: true }}
            >
              <Background />
              <Controls showInteractive={false} position="top-right" orientation="horizontal" />
            </ReactFlow>
          </section>
          {lineage.data.truncated && <p className="hint">{S.truncated}</p>}
          <details>
            <summary>{S.list}</summary>
            <ul>
              {(lineage.data.remoteRelatives ?? []).map((r) => (
                <li key={`${r.node.peer}:${r.plantId}`}>
                  <a href={`${r.node.url}/plants/${r.plantId}`} rel="noopener noreferrer">
                    {r.commonName ?? r.plantId}
                  </a>{' '}
                  ({S.onNode(r.node.peer)}) — {S.verification(r.node.peer, r.verification.state)}
                </li>
              ))}
              {familyOf(lineage.data).map((p) => (
                <li key={p.id}>
                  {p.id === plantId ? (
                    <strong>
                      {p.commonName} ({S.thisPlant})
                    </strong>
                  ) : (
                    <Link to={`/plants/${p.id}`}>{p.commonName}</Link>
                  )}{' '}
                  — {S.generation(p.generation)}
                  {p.propagationType ? `, ${S.propagation(p.propagationType)}` : ''}
                </li>
              ))}
            </ul>
          </details>
        </>
      )}
    </section>
  );
}
