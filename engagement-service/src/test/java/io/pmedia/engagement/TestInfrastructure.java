package io.pmedia.engagement;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.JwtTestResource;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.PostgresTestResource;
import io.pmedia.testing.S3ProxyTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/** Real PostgreSQL, a real Kafka broker in the test JVM, S3Proxy, the test signing keys, and the gateway's stand-in. */
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "pmedia_engagement_test"))
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(S3ProxyTestResource.class)
@QuarkusTestResource(JwtTestResource.class)
@QuarkusTestResource(GatewayStub.class)
public class TestInfrastructure {
}
