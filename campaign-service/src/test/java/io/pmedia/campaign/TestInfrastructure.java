package io.pmedia.campaign;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.JwtTestResource;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Real PostgreSQL, a real Kafka broker in the test JVM, the test signing keys, and the gateway's internal client
 * registry ({@link GatewayStub}).
 */
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "pmedia_campaign_test"))
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(JwtTestResource.class)
@QuarkusTestResource(GatewayStub.class)
public class TestInfrastructure {
}
