package io.pmedia.notifier.rest;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.notifier.UsageMetric;
import io.pmedia.notifier.service.UsageReports;
import io.pmedia.notifier.service.UsageReports.Granularity;
import io.pmedia.notifier.service.UsageReports.Sums;
import io.pmedia.notifier.service.UsageReports.VendorUsage;
import io.smallrye.mutiny.Uni;

/**
 * Usage (beyond the interface; docs/usage.md): what a vendor used, per day or month of a date range, from counters
 * kept as the work happened. A vendor reads its own ({@code GET /usage}); the operator reads every vendor's
 * ({@code GET /admin/usage}, through the gateway's operator routes).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Usage")
public class UsageResource {

    /** One vendor's usage: the range ({@code to} excluded), its totals and each period. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"client-id", "from", "to", "granularity", "totals", "periods"})
    public record UsageView(@JsonProperty("client-id") UUID clientId, LocalDate from, LocalDate to,
            String granularity, Map<String, Object> totals, List<Map<String, Object>> periods) {
    }

    /** Every vendor's usage over one range. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"from", "to", "granularity", "items"})
    public record AllUsage(LocalDate from, LocalDate to, String granularity, List<UsageView> items) {
    }

    private record Range(LocalDate from, LocalDate to, Granularity granularity) {
    }

    private final UsageReports reports;
    private final Caller caller;

    public UsageResource(UsageReports reports, Caller caller) {
        this.reports = reports;
        this.caller = caller;
    }

    @GET
    @Path("usage")
    @RolesAllowed(Roles.CLIENT)
    @Operation(summary = "The caller's usage per day (or month) of a date range")
    public Uni<UsageView> usage(@QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("granularity") String granularity) {
        Range range = range(from, to, granularity);
        return reports.of(caller.clientId(), range.from(), range.to(), range.granularity())
                .map(usage -> view(usage, range));
    }

    @GET
    @Path("admin/usage")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Every vendor's usage per day (or month) of a date range")
    public Uni<AllUsage> all(@QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("granularity") String granularity, @QueryParam("client-id") String clientId) {
        Range range = range(from, to, granularity);
        UUID only = ListFilters.uuid("client-id", clientId);
        Uni<List<VendorUsage>> found = only != null
                ? reports.of(only, range.from(), range.to(), range.granularity()).map(List::of)
                : reports.all(range.from(), range.to(), range.granularity());
        return found.map(usages -> new AllUsage(range.from(), range.to(), wire(range.granularity()),
                usages.stream().map(usage -> view(usage, range)).toList()));
    }

    /** Dates ({@code 2026-11-01}) or date-times (their UTC date); by default this month so far. */
    private Range range(String from, String to, String granularity) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate start = date("from", from, today.with(TemporalAdjusters.firstDayOfMonth()));
        LocalDate end = date("to", to, today.plusDays(1));
        Dates.days(start, end, reports.maxDays());
        Granularity chosen = granularity == null || granularity.isBlank()
                ? Granularity.DAY
                : ListFilters.oneOf("granularity", granularity, Granularity.class, UsageResource::wire);
        return new Range(start, end, chosen);
    }

    private static LocalDate date(String name, String value, LocalDate otherwise) {
        LocalDate date = Dates.date(name, value);
        return date == null ? otherwise : date;
    }

    private static String wire(Granularity granularity) {
        return granularity.name().toLowerCase(Locale.ROOT);
    }

    private static UsageView view(VendorUsage usage, Range range) {
        List<Map<String, Object>> periods = usage.periods().entrySet().stream().map(entry -> {
            Map<String, Object> period = new LinkedHashMap<>();
            period.put("start", entry.getKey());
            period.putAll(metrics(entry.getValue()));
            return period;
        }).toList();
        return new UsageView(usage.clientId(), range.from(), range.to(), wire(range.granularity()),
                metrics(usage.totals()), periods);
    }

    /** Every metric, in the document's order, grouped as {@link UsageMetric} says; counts as whole numbers. */
    static Map<String, Object> metrics(Sums sums) {
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (UsageMetric metric : UsageMetric.values()) {
            double amount = sums.of(metric);
            Object value = metric.count() ? (Object) Math.round(amount) : (Object) (Math.round(amount * 1000) / 1000.0);
            if (metric.group() == null) {
                metrics.put(metric.field(), value);
            } else {
                @SuppressWarnings("unchecked")
                Map<String, Object> group = (Map<String, Object>) metrics.computeIfAbsent(metric.group(),
                        name -> new LinkedHashMap<String, Object>());
                group.put(metric.field(), value);
            }
        }
        return metrics;
    }
}
