/**
 * Omni output selectors: what `-o` (CSV) and `-k` (key=value) print. `-k`
 * prints the selector names; `-o` prints a human header per column, mapped
 * back here. Header texts are netperf 2.7.0's, read from its real output.
 */
export const CSV_HEADER_SELECTORS: Readonly<Record<string, string>> = {
  Throughput: 'THROUGHPUT',
  'Throughput Units': 'THROUGHPUT_UNITS',
  'Elapsed Time (sec)': 'ELAPSED_TIME',
  Protocol: 'PROTOCOL',
  Direction: 'DIRECTION',
  'Minimum Latency Microseconds': 'MIN_LATENCY',
  'Mean Latency Microseconds': 'MEAN_LATENCY',
  'Maximum Latency Microseconds': 'MAX_LATENCY',
  'Stddev Latency Microseconds': 'STDDEV_LATENCY',
  '50th Percentile Latency Microseconds': 'P50_LATENCY',
  '90th Percentile Latency Microseconds': 'P90_LATENCY',
  '99th Percentile Latency Microseconds': 'P99_LATENCY',
  'Transaction Rate Tran/s': 'TRANSACTION_RATE',
  'Round Trip Latency usec/tran': 'RT_LATENCY',
  'Local Transport Retransmissions': 'LOCAL_TRANSPORT_RETRANS',
  'Remote Transport Retransmissions': 'REMOTE_TRANSPORT_RETRANS',
  'Transport MSS bytes': 'TRANSPORT_MSS',
  'Confidence Level Percent': 'CONFIDENCE_LEVEL',
  'Confidence Width Target': 'CONFIDENCE_INTERVAL',
  'Confidence Iterations Run': 'CONFIDENCE_ITERATION',
  'Throughput Confidence Width (%)': 'THROUGHPUT_CONFID',
  'Local CPU Util %': 'LOCAL_CPU_UTIL',
  'Remote CPU Util %': 'REMOTE_CPU_UTIL',
  'Request Size Bytes': 'REQUEST_SIZE',
  'Response Size Bytes': 'RESPONSE_SIZE',
  'Local Send Size': 'LOCAL_SEND_SIZE',
  'Remote Recv Size': 'REMOTE_RECV_SIZE',
  'Local Send Socket Size Initial': 'LSS_SIZE',
  'Remote Recv Socket Size Initial': 'RSR_SIZE',
  'Local Send Throughput': 'LOCAL_SEND_THROUGHPUT',
  'Remote Recv Throughput': 'REMOTE_RECV_THROUGHPUT',
  'Local Bytes Sent': 'LOCAL_BYTES_SENT',
  'Remote Bytes Received': 'REMOTE_BYTES_RECVD',
  'Command Line': 'COMMAND_LINE',
  'Local Congestion Control Algorithm': 'LOCAL_CONG_CONTROL',
  'Remote Congestion Control Algorithm': 'REMOTE_CONG_CONTROL',
};

/** Selectors every run asks for. */
const COMMON_SELECTORS = [
  'THROUGHPUT',
  'THROUGHPUT_UNITS',
  'ELAPSED_TIME',
  'PROTOCOL',
  'DIRECTION',
  'LOCAL_TRANSPORT_RETRANS',
  'REMOTE_TRANSPORT_RETRANS',
  'TRANSPORT_MSS',
  'CONFIDENCE_LEVEL',
  'CONFIDENCE_INTERVAL',
  'CONFIDENCE_ITERATION',
  'THROUGHPUT_CONFID',
  'LOCAL_CPU_UTIL',
  'REMOTE_CPU_UTIL',
] as const;

/** TCP tests add what each end's socket used: the client_cc / server_cc labels. */
export const TCP_SELECTORS: readonly string[] = ['LOCAL_CONG_CONTROL', 'REMOTE_CONG_CONTROL'];

/** Request/response tests add the transaction and latency statistics (what PKB asks for, plus mean). */
export const RR_SELECTORS: readonly string[] = [
  ...COMMON_SELECTORS,
  'TRANSACTION_RATE',
  'REQUEST_SIZE',
  'RESPONSE_SIZE',
  'MIN_LATENCY',
  'MEAN_LATENCY',
  'MAX_LATENCY',
  'STDDEV_LATENCY',
  'P50_LATENCY',
  'P90_LATENCY',
  'P99_LATENCY',
  // Last: the raw output then says exactly how it was measured.
  'COMMAND_LINE',
];

/**
 * Bulk tests leave the latency selectors out: asking for them makes netperf
 * timestamp every send call, which costs throughput and measures nothing useful.
 */
export const STREAM_SELECTORS: readonly string[] = [...COMMON_SELECTORS, 'LOCAL_SEND_SIZE', 'REMOTE_RECV_SIZE', 'LOCAL_SEND_THROUGHPUT', 'REMOTE_RECV_THROUGHPUT', 'COMMAND_LINE'];
