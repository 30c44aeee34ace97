package io.pmedia.notifier;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.JwtTestResource;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/** Real PostgreSQL, a real Kafka broker in the test JVM, the test signing keys, and a stand-in for the gateway. */
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "pmedia_notifier_test"))
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(JwtTestResource.class)
@QuarkusTestResource(GatewayStub.class)
public class TestInfrastructure {
}
