import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config/load.js'

t.test('no endpoint: tracing off', async (t) => {
  const config = loadConfig({})
  t.equal(config.otlpTracesEndpoint, undefined)
  t.equal(config.otelServiceName, undefined)
})

t.test('the collector root gets the traces path; the traces URL is used as it is and wins', async (t) => {
  t.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).otlpTracesEndpoint, 'http://collector:4318/v1/traces')
  t.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318/' }).otlpTracesEndpoint, 'https://collector:4318/v1/traces')
  t.equal(
    loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9000/otlp' })
      .otlpTracesEndpoint,
    'http://traces:9000/otlp',
  )
  t.equal(loadConfig({ OTEL_SERVICE_NAME: 'checkout-orchestrator' }).otelServiceName, 'checkout-orchestrator')
})

t.test('a bad value stops the start, naming the variable', async (t) => {
  t.throws(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), ConfigError)
  t.throws(() => loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' }), /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/)
  t.throws(() => loadConfig({ OTEL_SERVICE_NAME: 'x'.repeat(201) }), /OTEL_SERVICE_NAME/)
})
