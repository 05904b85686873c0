package org.overloadcontrol.internal.admission;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The tuning of one response-time admission controller, immutable and validated when built.
 *
 * <p>Defaults are the published values of Welsh &amp; Culler 2003 (Figure 4 and the Sandstorm
 * source): α = 0.7, nreq = 100, timeout = 1 s, err_d = 0.0, err_i = −0.5, c_i = −0.1,
 * adj_i = 2.0, adj_d = 1.2, rate_min = 0.05/s, rate_max = 5000/s, initial rate 100/s, bucket
 * depth 1; and from §3.3 adjlo_d = 10, lc_thresh = 20.
 *
 * <p>One departure from the paper, on by default: {@link #judgeOnFreshSamples()}. After a
 * round cuts a class's rate, the response times of requests that arrived before the cut are
 * not used to judge the following rounds, the smoothed estimate restarts from the first round
 * of post-cut samples, and a class's own cut stops at its completions per second over adj_d.
 * The paper judges every round on every sample; after a load step the requests admitted at
 * the old rate finish late for several rounds (dead time) and the smoothed estimate needs
 * about six rounds to fall from ten times the target to below it, so each of those rounds
 * cuts again and the rate ends far below capacity (measured in {@code AdmissionControlIT}:
 * 28–31/s of an 80/s capacity with the paper's controller, 64–69/s with this one; see
 * {@link EndpointAdmissionController} and docs/controller.md). Set it to false for the
 * paper's exact behaviour.
 */
public final class ControllerParameters {

  private static final Duration MAX_TIMEOUT = Duration.ofHours(1);
  private static final ControllerParameters DEFAULTS = new Builder().build();

  private final double alpha;
  private final int nreq;
  private final long timeoutNanos;
  private final double errD;
  private final double errI;
  private final double cI;
  private final double adjI;
  private final double adjD;
  private final double adjLoD;
  private final int lcThresh;
  private final double rateMin;
  private final double rateMax;
  private final double initialRate;
  private final int bucketDepth;
  private final boolean judgeOnFreshSamples;
  private final boolean proportionalIncrease;

  private ControllerParameters(Builder b) {
    this.proportionalIncrease = b.proportionalIncrease;
    this.alpha = b.alpha;
    this.nreq = b.nreq;
    this.timeoutNanos = b.timeoutNanos;
    this.errD = b.errD;
    this.errI = b.errI;
    this.cI = b.cI;
    this.adjI = b.adjI;
    this.adjD = b.adjD;
    this.adjLoD = b.adjLoD;
    this.lcThresh = b.lcThresh;
    this.rateMin = b.rateMin;
    this.rateMax = b.rateMax;
    this.initialRate = b.initialRate;
    this.bucketDepth = b.bucketDepth;
    this.judgeOnFreshSamples = b.judgeOnFreshSamples;
  }

  /** The published parameters. */
  public static ControllerParameters defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the published parameters. */
  public static Builder custom() {
    return new Builder();
  }

  /** A builder starting from {@code base}. */
  public static Builder from(ControllerParameters base) {
    return new Builder(base);
  }

  /** EWMA weight of the previous estimate: cur = α·cur + (1−α)·samp. */
  public double alpha() {
    return alpha;
  }

  /** Number of response-time samples after which the controller runs. */
  public int nreq() {
    return nreq;
  }

  /** Interval after which the controller runs even with fewer than nreq samples. */
  public long timeoutNanos() {
    return timeoutNanos;
  }

  /** Error above which the rate is cut. */
  public double errD() {
    return errD;
  }

  /** Error below which the rate is raised. */
  public double errI() {
    return errI;
  }

  /** The error at which the additive increase would be zero. */
  public double cI() {
    return cI;
  }

  /** Gain of the additive increase: rate += −(err − c_i)·adj_i. */
  public double adjI() {
    return adjI;
  }

  /** Divisor of the multiplicative decrease: rate /= adj_d. */
  public double adjD() {
    return adjD;
  }

  /** Divisor applied to lower classes when a higher class misses its target (§3.3). */
  public double adjLoD() {
    return adjLoD;
  }

  /** Rounds with all lower classes at rate_min before a class cuts its own rate (§3.3). */
  public int lcThresh() {
    return lcThresh;
  }

  /** Lowest admission rate, requests per second. */
  public double rateMin() {
    return rateMin;
  }

  /** Highest admission rate, requests per second. */
  public double rateMax() {
    return rateMax;
  }

  /** Admission rate before the first controller round, requests per second. */
  public double initialRate() {
    return initialRate;
  }

  /** Number of tokens the bucket holds at most: the largest burst admitted at once. */
  public int bucketDepth() {
    return bucketDepth;
  }

  /**
   * Whether a round judges only the samples of requests that arrived after this class's rate
   * was last cut, restarting the smoothed estimate from them (default true; false is the
   * paper's exact controller). Not in Welsh &amp; Culler 2003: it removes the dead time that
   * makes the published controller cut several times for one overload.
   */
  public boolean judgeOnFreshSamples() {
    return judgeOnFreshSamples;
  }

  /**
   * Whether an increase is proportional to the rate, {@code rate·(1 + 0.1·step)} with the
   * paper's step {@code −(err − c_i)·adj_i}, instead of the paper's absolute {@code rate + step}
   * (default false). Not in the paper: its absolute step of about 2/s per round neither scales
   * with the capacity nor stays small beside a small one.
   */
  public boolean proportionalIncrease() {
    return proportionalIncrease;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ControllerParameters p
        && p.alpha == alpha
        && p.nreq == nreq
        && p.timeoutNanos == timeoutNanos
        && p.errD == errD
        && p.errI == errI
        && p.cI == cI
        && p.adjI == adjI
        && p.adjD == adjD
        && p.adjLoD == adjLoD
        && p.lcThresh == lcThresh
        && p.rateMin == rateMin
        && p.rateMax == rateMax
        && p.initialRate == initialRate
        && p.bucketDepth == bucketDepth
        && p.judgeOnFreshSamples == judgeOnFreshSamples
        && p.proportionalIncrease == proportionalIncrease;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        alpha,
        nreq,
        timeoutNanos,
        errD,
        errI,
        cI,
        adjI,
        adjD,
        adjLoD,
        lcThresh,
        rateMin,
        rateMax,
        initialRate,
        bucketDepth,
        judgeOnFreshSamples,
        proportionalIncrease);
  }

  @Override
  public String toString() {
    return "ControllerParameters{alpha="
        + alpha
        + ", nreq="
        + nreq
        + ", timeout="
        + Duration.ofNanos(timeoutNanos)
        + ", errD="
        + errD
        + ", errI="
        + errI
        + ", cI="
        + cI
        + ", adjI="
        + adjI
        + ", adjD="
        + adjD
        + ", adjLoD="
        + adjLoD
        + ", lcThresh="
        + lcThresh
        + ", rateMin="
        + rateMin
        + ", rateMax="
        + rateMax
        + ", initialRate="
        + initialRate
        + ", bucketDepth="
        + bucketDepth
        + ", judgeOnFreshSamples="
        + judgeOnFreshSamples
        + ", proportionalIncrease="
        + proportionalIncrease
        + "}";
  }

  /**
   * Parameters that contradict each other, each valid alone: thrown by {@link Builder#build()}
   * with the parameters' names, so that configuration can name the keys that set them.
   */
  public static final class Conflict extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> parameters;

    Conflict(String message, String... parameters) {
      super(message);
      this.parameters = List.of(parameters);
    }

    /** The parameters in contradiction, the one the rule is about first. */
    public List<String> parameters() {
      return parameters;
    }
  }

  /**
   * Builds {@link ControllerParameters}; each setter rejects a value outside its range at once,
   * and {@link #build()} rejects combinations that contradict each other.
   */
  public static final class Builder {
    private double alpha = 0.7;
    private int nreq = 100;
    private long timeoutNanos = Duration.ofSeconds(1).toNanos();
    private double errD = 0.0;
    private double errI = -0.5;
    private double cI = -0.1;
    private double adjI = 2.0;
    private double adjD = 1.2;
    private double adjLoD = 10.0;
    private int lcThresh = 20;
    private double rateMin = 0.05;
    private double rateMax = 5000.0;
    private double initialRate = 100.0;
    private int bucketDepth = 1;
    private boolean judgeOnFreshSamples = true;
    private boolean proportionalIncrease;

    private Builder() {}

    private Builder(ControllerParameters p) {
      alpha = p.alpha;
      nreq = p.nreq;
      timeoutNanos = p.timeoutNanos;
      errD = p.errD;
      errI = p.errI;
      cI = p.cI;
      adjI = p.adjI;
      adjD = p.adjD;
      adjLoD = p.adjLoD;
      lcThresh = p.lcThresh;
      rateMin = p.rateMin;
      rateMax = p.rateMax;
      initialRate = p.initialRate;
      bucketDepth = p.bucketDepth;
      judgeOnFreshSamples = p.judgeOnFreshSamples;
      proportionalIncrease = p.proportionalIncrease;
    }

    public Builder alpha(double value) {
      require(value >= 0 && value < 1, "alpha", value, "a number in [0, 1)");
      alpha = value;
      return this;
    }

    public Builder nreq(int value) {
      require(value >= 1, "nreq", value, "a whole number >= 1");
      nreq = value;
      return this;
    }

    public Builder timeout(Duration value) {
      // The controller counts in multiples of its timeout (ten of them to call a class gone);
      // an hour keeps those products far from overflowing a long of nanoseconds.
      require(
          !value.isNegative() && !value.isZero() && value.compareTo(MAX_TIMEOUT) <= 0,
          "timeout",
          value,
          "a positive duration of at most 1h");
      timeoutNanos = value.toNanos();
      return this;
    }

    public Builder errD(double value) {
      require(Double.isFinite(value), "errD", value, "a finite number");
      errD = value;
      return this;
    }

    public Builder errI(double value) {
      require(Double.isFinite(value), "errI", value, "a finite number");
      errI = value;
      return this;
    }

    public Builder cI(double value) {
      require(Double.isFinite(value), "cI", value, "a finite number");
      cI = value;
      return this;
    }

    public Builder adjI(double value) {
      require(value > 0 && Double.isFinite(value), "adjI", value, "a number > 0");
      adjI = value;
      return this;
    }

    public Builder adjD(double value) {
      require(value > 1 && Double.isFinite(value), "adjD", value, "a number > 1");
      adjD = value;
      return this;
    }

    public Builder adjLoD(double value) {
      require(value > 1 && Double.isFinite(value), "adjLoD", value, "a number > 1");
      adjLoD = value;
      return this;
    }

    public Builder lcThresh(int value) {
      require(value >= 1, "lcThresh", value, "a whole number >= 1");
      lcThresh = value;
      return this;
    }

    public Builder rateMin(double value) {
      require(value > 0 && Double.isFinite(value), "rateMin", value, "a number > 0");
      rateMin = value;
      return this;
    }

    public Builder rateMax(double value) {
      require(value > 0 && Double.isFinite(value), "rateMax", value, "a number > 0");
      rateMax = value;
      return this;
    }

    public Builder initialRate(double value) {
      require(value > 0 && Double.isFinite(value), "initialRate", value, "a number > 0");
      initialRate = value;
      return this;
    }

    public Builder bucketDepth(int value) {
      require(value >= 1, "bucketDepth", value, "a whole number >= 1");
      bucketDepth = value;
      return this;
    }

    /** False restores the paper's exact controller (see {@link #judgeOnFreshSamples()}). */
    public Builder judgeOnFreshSamples(boolean value) {
      judgeOnFreshSamples = value;
      return this;
    }

    /** True: increases proportional to the rate (see {@link #proportionalIncrease()}). */
    public Builder proportionalIncrease(boolean value) {
      proportionalIncrease = value;
      return this;
    }

    /**
     * The paper's exact controller: every sample judges every round
     * ({@code judgeOnFreshSamples(false)}); the other parameters are left as they are.
     */
    public Builder paperExact() {
      return judgeOnFreshSamples(false);
    }

    /**
     * Builds the parameters.
     *
     * @throws Conflict when two or more parameters contradict each other
     */
    public ControllerParameters build() {
      if (rateMax < rateMin) {
        throw new Conflict(
            "rateMax (" + rateMax + ") must not be below rateMin (" + rateMin + ")",
            "rateMax",
            "rateMin");
      }
      if (initialRate < rateMin || initialRate > rateMax) {
        throw new Conflict(
            "initialRate ("
                + initialRate
                + ") must lie in [rateMin, rateMax] = ["
                + rateMin
                + ", "
                + rateMax
                + "]",
            "initialRate",
            initialRate < rateMin ? "rateMin" : "rateMax");
      }
      if (errI > errD) {
        throw new Conflict(
            "errI ("
                + errI
                + ") must not be above errD ("
                + errD
                + "): the rate would rise and fall at once",
            "errI",
            "errD");
      }
      return new ControllerParameters(this);
    }

    private static void require(boolean ok, String name, Object value, String allowed) {
      if (!ok) {
        throw new IllegalArgumentException(name + " must be " + allowed + ", was " + value);
      }
    }
  }
}
