package io.pmedia.common.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

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
        String nul = Base64.getUrlEncoder().encodeToString("1795930350579898:\u0000".getBytes(StandardCharsets.UTF_8));
        String injection = Base64.getUrlEncoder()
                .encodeToString("0:' OR 1=1--".getBytes(StandardCharsets.UTF_8));
        for (String wrong : List.of("x", "bm90LWEtY3Vyc29y", "MTIz", "OjEyMw", "a".repeat(500), "%%%",
                "MTc5NTkzMDM1MDU3OTg5ODoA", nul, injection)) {
            assertThatThrownBy(() -> Cursor.parse(wrong)).isInstanceOf(ApiException.class)
                    .hasMessageContaining("'cursor'");
        }
    }

    @Test
    void aCursorOfAListWhoseIdsHaveAFormHoldsOnlySuchAnId() {
        Pattern webhookId = Pattern.compile("msg_[0-9a-f]{32}");
        String id = "msg_" + "0123456789abcdef".repeat(2);
        assertThat(Cursor.parse(new Cursor(Instant.EPOCH, id).encode()).id(webhookId)).isEqualTo(id);
        assertThatThrownBy(() -> Cursor.parse(new Cursor(Instant.EPOCH, "msg_x").encode()).id(webhookId))
                .hasMessageContaining("'cursor'");
        assertThat(new Cursor(Instant.EPOCH, null).id(webhookId)).isNull();
    }

    @Test
    void datesHavePlainYearsAndABlankQueryParameterIsAbsentButABlankFieldIsNot() {
        for (String far : List.of("-4713-01-01", "-999999999-01-01", "+10000-01-01", "0000-01-01",
                "-4713-01-01T00:00:00Z", "+275760-09-13T00:00:00Z")) {
            assertThatThrownBy(() -> Dates.time("from", far)).as(far).hasMessageContaining("'from'")
                    .hasMessageContaining("years 0001 to 9999");
        }
        assertThat(Dates.time("from", "0001-01-01")).isEqualTo(Instant.parse("0001-01-01T00:00:00Z"));
        assertThat(Dates.date("to", "9999-12-31T23:00:00Z")).isEqualTo(LocalDate.parse("9999-12-31"));
        for (String blank : List.of("", " ", "\t", "\u2028", "\u3000")) {
            assertThat(Dates.time("to", blank)).isNull();
            assertThatThrownBy(() -> Dates.fieldTime("until", blank)).hasMessageContaining("field 'until' is blank");
        }
        assertThat(Dates.fieldTime("until", null)).isNull();
        assertThatThrownBy(() -> Dates.fieldTime("until", "soon")).hasMessageContaining("field 'until' must be");
        assertThatThrownBy(() -> Dates.days(LocalDate.parse("2026-01-01"), LocalDate.parse("2026-12-31"), 93))
                .hasMessageContaining("at most 93 days");
        assertThatThrownBy(() -> Dates.days(LocalDate.parse("2026-01-02"), LocalDate.parse("2026-01-01"), 93))
                .hasMessageContaining("'from' must be before 'to'");
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
        assertThat(Dates.time("from", "2026-11-27")).isEqualTo(Instant.parse("2026-11-27T00:00:00Z"));
        assertThat(Dates.time("from", "2026-11-27T09:00:00+01:00"))
                .isEqualTo(Instant.parse("2026-11-27T08:00:00Z"));
        assertThatThrownBy(() -> Dates.time("to", "yesterday")).hasMessageContaining("'to'");
        assertThatThrownBy(() -> Dates.range(Instant.parse("2026-11-27T08:00:00Z"),
                Instant.parse("2026-11-27T07:00:00Z"))).hasMessageContaining("'from'");
        assertThatThrownBy(() -> ListFilters.uuid("template-id", "nope")).hasMessageContaining("'template-id'");
    }
}
