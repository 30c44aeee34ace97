package io.pmedia.gateway;

import io.pmedia.testing.JwtTestResource;
import io.pmedia.testing.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * What every gateway test runs against: a real PostgreSQL database (behind a proxy tests can cut:
 * {@link io.pmedia.testing.DatabaseOutage}), test keys, and echoing stand-in services.
 */
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = {
        @ResourceArg(name = "database", value = "pmedia_gateway_test"),
        @ResourceArg(name = "outages", value = "true")})
@QuarkusTestResource(JwtTestResource.class)
@QuarkusTestResource(EchoUpstreamResource.class)
public class TestInfrastructure {
}
