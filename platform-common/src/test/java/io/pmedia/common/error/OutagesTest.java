package io.pmedia.common.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

/** Which failures mean "a dependency cannot be reached" (503), at whatever depth a library wrapped them. */
class OutagesTest {

    @Test
    void refusedConnectionsLostConnectionsAndPoolWaitTimeoutsAreOutages() {
        assertThat(Outages.isUnreachableDependency(new ConnectException("Connection refused"))).isTrue();
        assertThat(Outages.isUnreachableDependency(ClosedConnectionException.INSTANCE)).isTrue();
        // the database going down in the middle of a statement: the socket is reset under the client
        assertThat(Outages.isUnreachableDependency(new SocketException("Connection reset"))).isTrue();
        assertThat(Outages.isUnreachableDependency(new NoStackTraceThrowable("Timeout"))).isTrue();
        assertThat(Outages.isUnreachableDependency(new ConnectionWaitTimeout(Duration.ofSeconds(3)))).isTrue();
        assertThat(Outages.isUnreachableDependency(
                new ConnectionPoolTooBusyException("Connection pool reached max wait queue size of 1024"))).isTrue();
        assertThat(Outages.isUnreachableDependency(
                new NoStackTraceThrowable("Connection is not active now, current status: CLOSED"))).isTrue();
    }

    @Test
    void theServerRefusingWorkIsAnOutage() {
        assertThat(Outages.isUnreachableDependency(pg("57P01"))).isTrue(); // admin shutdown
        assertThat(Outages.isUnreachableDependency(pg("57P03"))).isTrue(); // starting up
        assertThat(Outages.isUnreachableDependency(pg("53300"))).isTrue(); // too many connections
        assertThat(Outages.isUnreachableDependency(new SQLException("refused", "08001"))).isTrue();
    }

    @Test
    void wrappingDoesNotHideAnOutage() {
        Throwable wrapped = new CompletionException(new IllegalStateException("session failed",
                new RuntimeException(new ConnectException("Connection refused"))));

        ApiException answer = Outages.unavailable(wrapped);

        assertThat(answer.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
        assertThat(answer.retryAfter()).isEqualTo(Outages.RETRY_AFTER);
        assertThat(answer.getMessage()).doesNotContain("Connection refused");
    }

    @Test
    void faultsOfTheStatementOrTheServiceAreNot() {
        assertThat(Outages.unavailable(pg("23505"))).isNull(); // unique violation
        assertThat(Outages.unavailable(new SQLException("syntax", "42601"))).isNull();
        assertThat(Outages.unavailable(new NoStackTraceThrowable("Something else"))).isNull();
        assertThat(Outages.unavailable(new NullPointerException())).isNull();
        assertThat(Outages.unavailable(new BindException("Address already in use"))).isNull(); // ours, not theirs
        assertThat(Outages.unavailable(null)).isNull();
    }

    @Test
    void aCauseChainThatLoopsEnds() {
        RuntimeException first = new RuntimeException("a");
        RuntimeException second = new RuntimeException("b", first);
        first.initCause(second);

        assertThat(Outages.isUnreachableDependency(second)).isFalse();
    }

    private static PgException pg(String state) {
        return new PgException("message", "FATAL", state, null);
    }
}
