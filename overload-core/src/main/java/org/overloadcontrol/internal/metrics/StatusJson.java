package org.overloadcontrol.internal.metrics;

import java.util.Comparator;
import java.util.List;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.QueueThresholdController;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.internal.session.SessionGate;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueRejection;

/**
 * The {@code /overload/status} document: everything the metrics say, as one JSON object that a
 * person, a script or the dashboard can read in one request. Field names and units are listed in
 * {@code docs/observability.md}; times are seconds, rates requests per second, counts since
 * start, and a value that is not known yet or does not apply is {@code null}.
 *
 * <pre>
 * { "tickerSeconds": 12.5,
 *   "states": { "healthy", "limiting", "degraded", "shedding" },
 *   "queues": {...} | null,
 *   "endpoints": [ { "name", "state", "refusedShare", "admissionEnabled", "degradable", "quality",
 *                    "minQuality", "permitsInUse",
 *                    "permitsLimit", "waiting", "queueThreshold",
 *                    "concurrency": null | { "group", "limit", "inFlight", "p90OfTarget",
 *                                            "setpointScale" },
 *                    "classes": [ { "name", "rank", "kind", "controlled", "p90EstimateSeconds",
 *                                   "p90SampleSeconds", "targetSeconds", "admissionRate",
 *                                   "missShare",
 *                                   "arrivals", "enqueued", "abandoned", "waitSeconds",
 *                                   "outcomes": { "completed", "rejected", "expired",
 *                                                 "redirected", "failed" } } ] } ],
 *   "bandwidth": null | { "totalBytesPerSecond", "maxMeasuredBytesPerSecond",
 *                         "groups": [ { "name", "allocatedBytesPerSecond",
 *                                       "averageBytesPerSecond", "active", "delayedNow",
 *                                       "admitted", "refused" } ] },
 *   "virtualQueue": null | { "passed", "tokenAdmitted", "toldToWait", "full",
 *                            "currentWaitSeconds", "capacitySubunitsPerSecond",
 *                            "refusals": { "forged", "altered", ..., "queue_full" } },
 *   "sessions": null | { "admittedNow", "admitted", "newRefused", "midSessionRefusals",
 *                        "completed" },
 *   "configVersion": 1,
 *   "lastReload": null | { "time", "result", "message" } }
 * </pre>
 *
 * <p>{@code bandwidth} (Li &amp; Jamin) and {@code virtualQueue} (WebQ) are {@code null} when the
 * feature is off; they read the same views as the gauges ({@link FeatureGauges}).
 */
final class StatusJson {

  private StatusJson() {}

  /** The document for {@code engine} now, without bandwidth shares or a virtual queue. */
  public static String write(OverloadEngine engine, OverloadWatch watch) {
    return write(engine, watch, null, null);
  }

  /**
   * The document for {@code engine} and the features beside it now.
   *
   * @param bandwidth the bandwidth shares, or null when off
   * @param virtualQueue the virtual queue, or null when off
   */
  public static String write(
      OverloadEngine engine,
      OverloadWatch watch,
      BandwidthView bandwidth,
      VirtualQueueView virtualQueue) {
    return write(engine, watch, bandwidth, virtualQueue, ConfigStatus.STARTED);
  }

  /**
   * The document for {@code engine}, the features beside it and the configuration's version
   * and last reload now.
   */
  public static String write(
      OverloadEngine engine,
      OverloadWatch watch,
      BandwidthView bandwidth,
      VirtualQueueView virtualQueue,
      ConfigStatus config) {
    JsonWriter w = new JsonWriter().beginObject();
    w.field("tickerSeconds", engine.ticker().read() / 1e9);
    List<ControlledEndpoint> endpoints = engine.endpoints();
    endpoints.sort(Comparator.comparing(ControlledEndpoint::name));
    w.name("states").beginObject();
    watch.counts(endpoints).forEach((state, n) -> w.field(state.word(), n));
    w.endObject();
    w.name("queues");
    WaitQueues queues = engine.queues();
    if (queues == null) {
      w.value((String) null);
    } else {
      w.beginObject()
          .field("order", engine.queueSettings().order().name())
          .field("lifo", queues.lifo())
          .field("waiting", queues.waitingCount())
          .field("permitsInUse", queues.permitsInUse())
          .field("permitsLimit", Readings.limit(queues.permitLimit()))
          .name("lengths")
          .beginObject();
      for (String q : OverloadMetrics.queueNames(engine)) {
        w.field(q, queues.queueLength(q));
      }
      w.endObject().endObject();
    }
    w.name("endpoints").beginArray();
    for (ControlledEndpoint e : endpoints) {
      endpoint(w, e, watch);
    }
    w.endArray();
    bandwidth(w.name("bandwidth"), bandwidth);
    virtualQueue(w.name("virtualQueue"), virtualQueue);
    sessions(w.name("sessions"), engine.sessions());
    config(w, config);
    return w.endObject().toString();
  }

  private static void config(JsonWriter w, ConfigStatus config) {
    w.field("configVersion", config.version());
    w.name("lastReload");
    if (config.lastAt() == null) {
      w.value((String) null);
      return;
    }
    w.beginObject()
        .field("time", config.lastAt().toString())
        .field("result", config.lastResult())
        .field("message", config.lastMessage())
        .endObject();
  }

  private static void bandwidth(JsonWriter w, BandwidthView view) {
    if (view == null) {
      w.value((String) null);
      return;
    }
    w.beginObject()
        .field("totalBytesPerSecond", view.totalBytesPerSecond())
        .field("maxMeasuredBytesPerSecond", view.maxMeasuredBytesPerSecond())
        .name("groups")
        .beginArray();
    for (GroupSnapshot g : view.groups()) {
      w.beginObject()
          .field("name", g.name())
          .field("allocatedBytesPerSecond", g.allocatedBytesPerSecond())
          .field("averageBytesPerSecond", g.averageBytesPerSecond())
          .field("active", g.active())
          .field("delayedNow", g.delayedCount())
          .field("admitted", g.admittedCount())
          .field("refused", g.refusedCount())
          .endObject();
    }
    w.endArray().endObject();
  }

  private static void sessions(JsonWriter w, SessionGate gate) {
    if (gate == null) {
      w.value((String) null);
      return;
    }
    w.beginObject()
        .field("admittedNow", gate.admittedSessions())
        .field("admitted", gate.admittedCount())
        .field("newRefused", gate.newSessionsRefusedCount())
        .field("midSessionRefusals", gate.midSessionRefusalCount())
        .field("completed", gate.completedCount())
        .endObject();
  }

  private static void virtualQueue(JsonWriter w, VirtualQueueView view) {
    if (view == null) {
      w.value((String) null);
      return;
    }
    int waitSeconds = view.currentWaitSeconds();
    w.beginObject()
        .field("passed", view.passCount())
        .field("tokenAdmitted", view.tokenAdmittedCount())
        .field("toldToWait", view.waitCount())
        .field("full", waitSeconds < 0)
        .field("currentWaitSeconds", waitSeconds < 0 ? Double.NaN : waitSeconds)
        .field("capacitySubunitsPerSecond", view.capacity()) // +Inf (training) writes null
        .field("shareSubunitsPerSecond", view.share())
        .field("unansweredClaims", view.unansweredClaims())
        .name("refusals")
        .beginObject();
    for (VirtualQueueRejection r : VirtualQueueRejection.values()) {
      w.field(r.code(), view.refusalCount(r));
    }
    w.endObject().endObject();
  }

  private static void endpoint(JsonWriter w, ControlledEndpoint e, OverloadWatch watch) {
    StateReading r = watch.reading(e.name());
    w.beginObject()
        .field("name", e.name())
        .field("state", r.state().word())
        .field("refusedShare", r.refusedShare())
        .field("admissionEnabled", e.admission().admissionEnabled())
        .field("degradable", e.qualityController() != null)
        .field("quality", e.quality())
        .field("minQuality", e.minQuality());
    EndpointLoad load = EndpointLoad.of(e);
    boolean permits = load.hasPermits();
    w.field("permitsInUse", permits ? load.permitsInUse() : Double.NaN)
        .field("permitsLimit", permits ? Readings.limit(load.permitsLimit()) : Double.NaN)
        .field("waiting", load.waiting());
    QueueThresholdController t = e.queueThreshold();
    w.field("queueThreshold", t == null ? Double.NaN : t.threshold());
    w.name("concurrency");
    if (!load.hasGroup()) {
      w.value((String) null);
    } else {
      w.beginObject()
          .field("group", load.groupName())
          .field("limit", load.groupLimit())
          .field("inFlight", load.groupInFlight())
          .field("p90OfTarget", load.groupP90OfTarget())
          .field("setpointScale", load.groupSetpointScale())
          .endObject();
    }
    w.name("classes").beginArray();
    List<EndpointClass> classes = e.classes();
    classes.sort(Comparator.comparing(EndpointClass::requestClass));
    for (EndpointClass ec : classes) {
      endpointClass(w, ec);
    }
    w.endArray().endObject();
  }

  private static void endpointClass(JsonWriter w, EndpointClass ec) {
    ClassController c = ec.controller();
    ClassDefinition rc = ec.requestClass();
    w.beginObject()
        .field("name", rc.name())
        .field("rank", rc.rank())
        .field("kind", rc.kind().name())
        .field("controlled", c.settings().controlled())
        .field("p90EstimateSeconds", Readings.p90EstimateSeconds(ec.p90()))
        .field("p90SampleSeconds", Readings.p90SampleSeconds(ec.p90()))
        .field("targetSeconds", Readings.targetSeconds(c))
        .field("admissionRate", Readings.admissionRate(ec))
        .field("missShare", ec.concurrency() == null ? Double.NaN : ec.concurrency().missShare())
        .field("arrivals", ec.arrivalCount())
        .field("enqueued", ec.enqueuedCount())
        .field("abandoned", ec.abandonedCount())
        .field("waitSeconds", Readings.waitSeconds(ec))
        .name("outcomes")
        .beginObject();
    for (Outcome o : Outcome.values()) {
      w.field(o.name().toLowerCase(java.util.Locale.ROOT), ec.outcomeCount(o));
    }
    w.endObject().endObject();
  }
}
