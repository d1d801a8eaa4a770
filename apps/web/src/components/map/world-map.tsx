import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import { useEffect, useId, useRef } from 'react';
import { pageSetting } from '../../lib/settings';
import { COMMON } from '../../lib/strings';
import { worldOutlines } from './basemap';
import { boundsAround, extendBounds, type Town, townsToLabel } from './geo';

export interface MapMarker {
  lat: number;
  lon: number;
  label: string;
  /** Where a click on the marker's popup link leads. */
  href?: string;
  tone?: 'main' | 'other';
  /** Drawn only: a click on it goes to the map beneath (the point a picker chose, which a click may choose again). */
  passive?: boolean;
}

export interface MapLine {
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  label: string;
}

/** An area the map shows: a circle of `km` around a point, widened to hold the markers. */
export interface MapArea {
  lat: number;
  lon: number;
  km: number;
}

interface WorldMapProps {
  /** What the map shows, for assistive technology (the same facts are also given as text on the page). */
  label: string;
  /** What the view shows now, in words ("Map centred on Lyon, 25 km"): shown under the map and read with it. */
  description?: string;
  markers?: readonly MapMarker[];
  lines?: readonly MapLine[];
  /** Called with the point clicked, when the map is a picker. */
  onPick?: (lat: number, lon: number) => void;
  /** Name of the button that picks the map's centre, the keyboard's way to pick (pan with the arrow keys first). */
  pickCentreLabel?: string;
  /** The area to show: a new one moves the map to it (and to the markers, as they come). */
  area?: MapArea;
  center?: { lat: number; lon: number };
  zoom?: number;
  tall?: boolean;
}

const GREEN = '#2f6b3a';
const OTHER = '#8a4b08';
/** Closest a fitted view goes: a street block, not a single house. */
const FIT_MAX_ZOOM = 13;

let towns: Promise<readonly Town[]> | undefined;
/** The bundled town names (a chunk of their own, fetched by the first map that labels towns). */
function loadTowns(): Promise<readonly Town[]> {
  towns ??= import('./towns.json').then((m) => m.default as unknown as Town[]);
  return towns;
}

const toLatLngBounds = (b: { south: number; west: number; north: number; east: number }) =>
  L.latLngBounds([b.south, b.west], [b.north, b.east]);

/**
 * A Leaflet map: street tiles when the deployment configures a tile URL, else the bundled world outlines with the
 * names of larger towns, more of them as one zooms in. Markers are circles (no image files), legs are lines; the view
 * fits what is drawn, or the `area` asked for.
 */
export function WorldMap({
  label,
  description,
  markers = [],
  lines = [],
  onPick,
  pickCentreLabel = COMMON.location.pickCentre,
  area,
  center,
  zoom,
  tall,
}: WorldMapProps) {
  const id = useId();
  const element = useRef<HTMLElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const m = L.map(el, { worldCopyJump: true, minZoom: 1, attributionControl: true });
    const tiles = pageSetting('map-tile-url');
    // Below the markers (overlay pane, 400) and above the tiles (200).
    m.createPane('outlines').style.zIndex = '250';
    const labelPane = m.createPane('town-labels');
    labelPane.style.zIndex = '350';
    // The names are drawn for the eye; the page lists what the map shows as text.
    labelPane.setAttribute('aria-hidden', 'true');
    let labels: L.LayerGroup | null = null;
    if (tiles) {
      // Street tiles name their own places; opaque outlines on top would hide them.
      L.tileLayer(tiles, { attribution: pageSetting('map-tile-attribution') ?? '', maxZoom: 19 }).addTo(m);
    } else {
      L.geoJSON(worldOutlines(), {
        style: { color: '#6f8f77', weight: 0.8, fillColor: '#eef3ea', fillOpacity: 1 },
        interactive: false,
        pane: 'outlines',
      }).addTo(m);
      m.attributionControl.addAttribution('Natural Earth, GeoNames');
      labels = L.layerGroup().addTo(m);
    }
    m.setView([20, 0], 2);
    m.on('click', (e: L.LeafletMouseEvent) => pick.current?.(e.latlng.lat, e.latlng.lng));
    layer.current = L.layerGroup().addTo(m);
    map.current = m;

    let alive = true;
    const drawLabels = () => {
      if (!labels) return;
      const group = labels;
      void loadTowns().then((all) => {
        if (!alive) return;
        group.clearLayers();
        const b = m.getBounds();
        const view = { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
        for (const [name, lat, lon, population] of townsToLabel(all, view, m.getZoom())) {
          const text = document.createElement('span');
          text.textContent = name;
          const size = population >= 1_000_000 ? 'large' : population >= 200_000 ? 'medium' : 'small';
          const icon = L.divIcon({ className: `map-town ${size}`, html: text, iconSize: [0, 0] });
          // The label's copy nearest the view's centre, on a map that wraps around the world.
          const c = m.getCenter().lng;
          const near = lon + 360 * Math.round((c - lon) / 360);
          L.marker([lat, near], { icon, interactive: false, keyboard: false, pane: 'town-labels' }).addTo(group);
        }
      });
    };
    m.on('moveend zoomend', drawLabels);
    drawLabels();
    // The map learns its size once; a layout that changes it later (a wider column, a phone turned) would otherwise
    // leave clicks and the centre measured against the old size.
    const resized = new ResizeObserver(() => m.invalidateSize());
    resized.observe(el);
    return () => {
      alive = false;
      resized.disconnect();
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
    // The area searched: its circle, dashed, under the markers.
    if (area) {
      L.circle([area.lat, area.lon], {
        radius: area.km * 1000,
        color: OTHER,
        weight: 1.5,
        dashArray: '4 4',
        fill: false,
        interactive: false,
      }).addTo(group);
    }
    for (const mk of markers) {
      const color = mk.tone === 'other' ? OTHER : GREEN;
      const marker = L.circleMarker([mk.lat, mk.lon], {
        radius: 8,
        color: '#fff',
        weight: 2,
        fillColor: color,
        fillOpacity: 1,
        interactive: !mk.passive,
      });
      if (mk.passive) {
        marker.addTo(group);
        points.push([mk.lat, mk.lon]);
        continue;
      }
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
    // An area asked for is shown by the effect below; a picker keeps the view the person chose; other maps fit what
    // they show.
    if (pick.current || area) return;
    if (center) m.setView([center.lat, center.lon], zoom ?? m.getZoom());
    else if (points.length === 1) m.setView(points[0]!, zoom ?? 6);
    else if (points.length > 1) m.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 8 });
  }, [markers, lines, center, zoom, area]);

  // An area: the circle around its point, and every marker (results found there), fitted. It moves the map when the
  // area changes and when the markers' positions do (results arriving), not when the person pans.
  const areaKey = area ? `${area.lat},${area.lon},${area.km}` : '';
  const markerKey = markers.map((mk) => `${mk.lat},${mk.lon}`).join(';');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys stand for `area` and `markers`.
  useEffect(() => {
    const m = map.current;
    if (!m || !area) return;
    const around = extendBounds(
      boundsAround(area, area.km),
      markers.map((mk) => ({ lat: mk.lat, lon: mk.lon })),
    );
    m.fitBounds(toLatLngBounds(around), { padding: [16, 16], maxZoom: FIT_MAX_ZOOM, animate: false });
  }, [areaKey, markerKey]);

  // A picker moves only when it is given a new centre (a place found by name), not when its marker moves.
  const centerLat = center?.lat;
  const centerLon = center?.lon;
  useEffect(() => {
    const m = map.current;
    if (!m || !pick.current || centerLat === undefined || centerLon === undefined) return;
    m.setView([centerLat, centerLon], zoom ?? Math.max(m.getZoom(), 6), { animate: false });
  }, [centerLat, centerLon, zoom]);

  const pickCentre = () => {
    const c = map.current?.getCenter();
    if (c) pick.current?.(c.lat, L.Util.wrapNum(c.lng, [-180, 180], true));
  };

  return (
    <div className="world-map">
      <section
        ref={element}
        className={tall ? 'map tall' : 'map'}
        aria-label={label}
        {...(description ? { 'aria-describedby': `${id}-view` } : {})}
        data-markers={markers.length}
        data-lines={lines.length}
      />
      {(description || onPick) && (
        <div className="map-under">
          {description && (
            <p className="hint" id={`${id}-view`}>
              {description}
            </p>
          )}
          {onPick && (
            <button type="button" className="secondary small" onClick={pickCentre}>
              {pickCentreLabel}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
