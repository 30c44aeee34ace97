package io.pmedia.media;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.JwtTestResource;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.PostgresTestResource;
import io.pmedia.testing.S3ProxyTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Real PostgreSQL (behind a proxy tests can cut: {@link io.pmedia.testing.DatabaseOutage}), a real Kafka broker in
 * the test JVM, S3Proxy, the test signing keys, and the gateway's internal client registry ({@link GatewayStub}).
 */
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = {
        @ResourceArg(name = "database", value = "pmedia_media_test"),
        @ResourceArg(name = "outages", value = "true")})
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(S3ProxyTestResource.class)
@QuarkusTestResource(JwtTestResource.class)
@QuarkusTestResource(GatewayStub.class)
public class TestInfrastructure {
}
