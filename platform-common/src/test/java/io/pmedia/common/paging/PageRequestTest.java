package io.pmedia.common.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;

class PageRequestTest {

    @Test
    void limitDefaultsTo20AndTakes1To100() {
        assertThat(PageRequest.of(null, null).limit()).isEqualTo(20);
        assertThat(PageRequest.of(" ", "").limit()).isEqualTo(20);
        assertThat(PageRequest.of("1", null).limit()).isEqualTo(1);
        assertThat(PageRequest.of("100", null).limit()).isEqualTo(100);
        for (String wrong : List.of("0", "101", "-1", "ten", "1.5", "99999999999")) {
            assertThatThrownBy(() -> PageRequest.of(wrong, null)).isInstanceOf(ApiException.class)
                    .hasMessageContaining("'limit'")
                    .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(ErrorCode.VALIDATION_ERROR));
        }
    }

    @Test
    void aCursorRoundTripsToTheMicrosecondAndAnythingElseIsRefusedNamingIt() {
        Cursor cursor = new Cursor(Instant.parse("2026-11-27T08:00:00.123456Z"), "0b9c61a2-6a57-4a9e");
        assertThat(Cursor.parse(cursor.encode())).isEqualTo(cursor);
        for (String wrong : List.of("x", "bm90LWEtY3Vyc29y", "MTIz", "OjEyMw", "a".repeat(500), "%%%")) {
            assertThatThrownBy(() -> Cursor.parse(wrong)).isInstanceOf(ApiException.class)
                    .hasMessageContaining("'cursor'");
        }
    }

    @Test
    void aPageKeepsLimitRowsAndPointsAfterTheLastShownOnlyWhenMoreExist() {
        PageRequest request = PageRequest.of("2", null);
        List<Instant> rows = List.of(Instant.parse("2026-11-27T08:00:03Z"), Instant.parse("2026-11-27T08:00:02Z"),
                Instant.parse("2026-11-27T08:00:01Z"));
        Page<Instant> page = request.page(rows, time -> new Cursor(time, "id"));
        assertThat(page.items()).containsExactly(rows.get(0), rows.get(1));
        assertThat(Cursor.parse(page.nextCursor()).time()).isEqualTo(rows.get(1));
        assertThat(request.page(rows.subList(0, 2), time -> new Cursor(time, "id")).nextCursor()).isNull();
    }

    @Test
    void filtersNameTheParameterTheyRefuse() {
        assertThat(ListFilters.time("from", "2026-11-27")).isEqualTo(Instant.parse("2026-11-27T00:00:00Z"));
        assertThat(ListFilters.time("from", "2026-11-27T09:00:00+01:00"))
                .isEqualTo(Instant.parse("2026-11-27T08:00:00Z"));
        assertThatThrownBy(() -> ListFilters.time("to", "yesterday")).hasMessageContaining("'to'");
        assertThatThrownBy(() -> ListFilters.range(Instant.parse("2026-11-27T08:00:00Z"),
                Instant.parse("2026-11-27T07:00:00Z"))).hasMessageContaining("'from'");
        assertThatThrownBy(() -> ListFilters.uuid("template-id", "nope")).hasMessageContaining("'template-id'");
    }
}
