package io.pmedia.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.pmedia.common.error.ApiException;
import io.pmedia.testing.arch.Rooms;

/**
 * platform-common's rooms (docs/architecture.md): what every service shares, knowing none of them. A room imports only
 * itself and the rooms below it; Kafka only in outbox/ (the relay), tracing/ (a trace across Kafka) and kafka/ (a
 * consumer group's size), hand-written SQL only in repository/, outbox/ and db/ (and error/, which tells a database
 * outage from a bad statement).
 */
class ArchitectureTest {

    static final Rooms ROOMS = Rooms.of("io.pmedia.common",
            "security repository outbox net",
            "client paging tracing db concurrent event json metrics limits config kafka",
            "error",
            "wire");

    @Test
    void everyRoomImportsOnlyTheRoomsBelowItAndKnowsNoService() {
        JavaClasses classes = ROOMS.production();

        assertThat(classes.contain(ApiException.class)).isTrue();
        ROOMS.layering().check(classes);
        ROOMS.noOtherService().check(classes);
        ROOMS.restClientsIn("client").check(classes);
        ROOMS.kafkaOnlyIn("outbox", "tracing", "kafka").check(classes);
        ROOMS.sqlOnlyIn("repository", "outbox", "db", "error").check(classes);
    }
}
