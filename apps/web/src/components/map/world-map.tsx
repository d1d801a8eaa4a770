import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { pageSetting } from '../../lib/settings';
import { worldOutlines } from './basemap';

export interface MapMarker {
  lat: number;
  lon: number;
  label: string;
  /** Where a click on the marker's popup link leads. */
  href?: string;
  tone?: 'main' | 'other';
}

export interface MapLine {
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  label: string;
}

interface WorldMapProps {
  /** What the map shows, for assistive technology (the same facts are also given as text on the page). */
  label: string;
  markers?: readonly MapMarker[];
  lines?: readonly MapLine[];
  /** Called with the point clicked, when the map is a picker. */
  onPick?: (lat: number, lon: number) => void;
  center?: { lat: number; lon: number };
  zoom?: number;
  tall?: boolean;
}

const GREEN = '#2f6b3a';
const OTHER = '#8a4b08';

/**
 * A Leaflet map over the bundled world outlines, with street tiles on top when the deployment configures a tile
 * URL. Markers are circles (no image files), legs are lines; the view fits what is drawn.
 */
export function WorldMap({ label, markers = [], lines = [], onPick, center, zoom, tall }: WorldMapProps) {
  const element = useRef<HTMLElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (!element.current) return;
    const m = L.map(element.current, { worldCopyJump: true, minZoom: 1, attributionControl: true });
    L.geoJSON(worldOutlines(), {
      style: { color: '#6f8f77', weight: 0.8, fillColor: '#eef3ea', fillOpacity: 1 },
      interactive: false,
    }).addTo(m);
    const tiles = pageSetting('map-tile-url');
    if (tiles) L.tileLayer(tiles, { attribution: pageSetting('map-tile-attribution') ?? '', maxZoom: 19 }).addTo(m);
    else m.attributionControl.addAttribution('Natural Earth');
    m.setView([20, 0], 2);
    m.on('click', (e: L.LeafletMouseEvent) => pick.current?.(e.latlng.lat, e.latlng.lng));
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    group.clearLayers();
    const points: L.LatLngExpression[] = [];
    for (const line of lines) {
      const ends: L.LatLngExpression[] = [
        [line.from.lat, line.from.lon],
        [line.to.lat, line.to.lon],
      ];
      L.polyline(ends, { color: OTHER, weight: 3, dashArray: '6 4' }).bindTooltip(line.label).addTo(group);
      points.push(...ends);
    }
    for (const mk of markers) {
      const color = mk.tone === 'other' ? OTHER : GREEN;
      const marker = L.circleMarker([mk.lat, mk.lon], {
        radius: 8,
        color: '#fff',
        weight: 2,
        fillColor: color,
        fillOpacity: 1,
      });
      const popup = document.createElement('div');
      if (mk.href) {
        const a = document.createElement('a');
        a.href = mk.href;
        a.textContent = mk.label;
        popup.append(a);
      } else popup.textContent = mk.label;
      marker.bindPopup(popup).bindTooltip(mk.label).addTo(group);
      points.push([mk.lat, mk.lon]);
    }
    // A picker keeps the view the person chose; other maps fit what they show.
    if (pick.current) return;
    if (center) m.setView([center.lat, center.lon], zoom ?? m.getZoom());
    else if (points.length === 1) m.setView(points[0]!, zoom ?? 6);
    else if (points.length > 1) m.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 8 });
  }, [markers, lines, center, zoom]);

  // A picker moves only when it is given a new centre (a place found by name), not when its marker moves.
  const centerLat = center?.lat;
  const centerLon = center?.lon;
  useEffect(() => {
    const m = map.current;
    if (!m || !pick.current || centerLat === undefined || centerLon === undefined) return;
    m.setView([centerLat, centerLon], zoom ?? Math.max(m.getZoom(), 6), { animate: false });
  }, [centerLat, centerLon, zoom]);

  return (
    <section
      ref={element}
      className={tall ? 'map tall' : 'map'}
      aria-label={label}
      data-markers={markers.length}
      data-lines={lines.length}
    />
  );
}
