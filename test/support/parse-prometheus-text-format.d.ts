/** Types of `parse-prometheus-text-format` (the package ships none): metric families of a text exposition. */
declare module 'parse-prometheus-text-format' {
  type Labels = Record<string, string>;
  interface Sample {
    labels?: Labels;
    value?: string;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Sample[];
  }
  function parsePrometheusTextFormat(text: string): MetricFamily[];
  export = parsePrometheusTextFormat;
}
