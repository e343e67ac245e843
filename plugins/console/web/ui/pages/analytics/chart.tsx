/**
 * One figure over time, drawn by uPlot on a canvas, with what a screen reader (or a person who
 * wants the numbers) needs beside it: a caption, a one-line summary, and the data as a table.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { timeText } from '../../parts/list-page';

export interface ChartLine {
  label: string;
  values: (number | null)[];
  color: string;
}

export interface ChartProps {
  id: string;
  title: string;
  /** Bucket starts, ms since the epoch. */
  times: number[];
  lines: ChartLine[];
  format(value: number | null): string;
  summary: string;
  /** A fixed value axis (rates: 0 to 1); by default it fits the data. */
  range?: [number, number];
}

const HEIGHT = 200;
/** Below this many known values a line is mostly gaps: its points are drawn too (a lone value has no line). */
const SPARSE = 30;

export function TimeChart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const format = (_u: uPlot, v: number | null) => props.format(v);
    const plot = new uPlot({
      width: Math.max(280, el.clientWidth),
      height: HEIGHT,
      series: [{ value: (_u, t) => (t === null ? '' : timeText(t * 1000)) }, ...props.lines.map((l) => ({
        label: l.label, stroke: l.color, width: 2, value: format,
        points: { show: l.values.filter((v) => v !== null).length < SPARSE, size: 6 },
      }))],
      ...(props.range ? { scales: { y: { range: props.range } } } : {}),
      axes: [{}, { values: (_u, ticks) => ticks.map((t) => props.format(t)), size: 85 }],
      cursor: { drag: { x: false, y: false } },
    }, [props.times.map((t) => t / 1000), ...props.lines.map((l) => l.values)] as uPlot.AlignedData, el);
    // The chart follows its column's width (the panel, the window).
    const resized = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: HEIGHT }));
    resized.observe(el);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [props.times, props.lines]);

  const captionId = `${props.id}-caption`;
  return (
    <figure class="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{props.title}</figcaption>
      <p class="chart-summary">{props.summary}</p>
      <div ref={box} class="chart-canvas" role="img" aria-label={`${props.title} over time: ${props.summary}`} />
      <details>
        <summary>{props.title}: data table</summary>
        <table aria-label={`${props.title} data`}>
          <thead>
            <tr><th scope="col">Time</th>{props.lines.map((l) => <th key={l.label} scope="col">{l.label}</th>)}</tr>
          </thead>
          <tbody>
            {props.times.map((t, i) => (
              <tr key={t}>
                <td><time dateTime={new Date(t).toISOString()}>{timeText(t)}</time></td>
                {props.lines.map((l) => <td key={l.label}>{props.format(l.values[i] ?? null)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
