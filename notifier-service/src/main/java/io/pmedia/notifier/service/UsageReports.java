package io.pmedia.notifier.service;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.notifier.UsageMetric;
import io.pmedia.notifier.config.UsageConfig;
import io.pmedia.notifier.repository.UsageStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Reads usage counters as vendors and operators see them (docs/usage.md): per period (day or month, UTC) over a date
 * range, every period of the range present (zero where nothing happened), with totals; and forgets the keys of events
 * counted long ago.
 */
@ApplicationScoped
public class UsageReports {

    private static final Logger LOG = Logger.getLogger(UsageReports.class);

    /** Day or month. */
    public enum Granularity {
        DAY, MONTH
    }

    /** One period's (or the range's) sums, by metric. */
    public record Sums(Map<UsageMetric, Double> amounts) {

        static Sums empty() {
            return new Sums(new EnumMap<>(UsageMetric.class));
        }

        void add(UsageMetric metric, double amount) {
            amounts.merge(metric, amount, Double::sum);
        }

        public double of(UsageMetric metric) {
            return amounts.getOrDefault(metric, 0.0);
        }
    }

    /** One vendor's usage over a range: totals, and each period from the first to the last. */
    public record VendorUsage(UUID clientId, Sums totals, Map<LocalDate, Sums> periods) {
    }

    private final UsageStore store;
    private final UsageConfig config;

    public UsageReports(UsageStore store, UsageConfig config) {
        this.store = store;
        this.config = config;
    }

    /** The longest range one read may span. */
    public int maxDays() {
        return config.maxDays();
    }

    /** One vendor's usage in {@code [from, to)}. */
    public Uni<VendorUsage> of(UUID clientId, LocalDate from, LocalDate to, Granularity granularity) {
        return store.totals(clientId, from, to, granularity == Granularity.MONTH)
                .map(totals -> vendors(totals, from, to, granularity).getOrDefault(clientId,
                        usage(clientId, from, to, granularity)));
    }

    /** Every vendor's usage in {@code [from, to)} (vendors with none are left out), by client id. */
    public Uni<List<VendorUsage>> all(LocalDate from, LocalDate to, Granularity granularity) {
        return store.totals(null, from, to, granularity == Granularity.MONTH)
                .map(totals -> new ArrayList<>(vendors(totals, from, to, granularity).values()));
    }

    private Map<UUID, VendorUsage> vendors(List<UsageStore.Total> totals, LocalDate from, LocalDate to,
            Granularity granularity) {
        Map<UUID, VendorUsage> byVendor = new TreeMap<>();
        for (UsageStore.Total total : totals) {
            UsageMetric metric = UsageMetric.ofStored(total.metric());
            if (metric == null) {
                continue; // written by a newer version
            }
            VendorUsage usage = byVendor.computeIfAbsent(total.clientId(),
                    id -> usage(id, from, to, granularity));
            usage.totals().add(metric, total.amount());
            Sums period = usage.periods().get(total.period());
            if (period != null) {
                period.add(metric, total.amount());
            }
        }
        return byVendor;
    }

    private static VendorUsage usage(UUID clientId, LocalDate from, LocalDate to, Granularity granularity) {
        Map<LocalDate, Sums> periods = new LinkedHashMap<>();
        LocalDate start = granularity == Granularity.MONTH ? from.with(TemporalAdjusters.firstDayOfMonth()) : from;
        for (LocalDate period = start; period.isBefore(to); period = period.plus(1,
                granularity == Granularity.MONTH ? ChronoUnit.MONTHS : ChronoUnit.DAYS)) {
            periods.put(period, Sums.empty());
        }
        return new VendorUsage(clientId, Sums.empty(), periods);
    }

    @Scheduled(every = "1h", delay = 1, delayUnit = TimeUnit.MINUTES, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> forgetOldEventKeys() {
        return store.forget(config.eventRetention())
                .invoke(count -> LOG.debugf("forgot %d counted usage event keys", count))
                .onFailure()
                .invoke(failure -> LOG.warnf("cannot forget old usage event keys: %s", failure.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
