// The overload-control dashboard: polls ./status every second and draws, per endpoint, the p90
// estimate against its target, the admission rate with the fraction of requests shed, and the
// waiting requests with the quality level; the wait queues by class with the FIFO/LIFO mode;
// and, when configured, tables for the bandwidth groups and the virtual queue.
// No build step and no CDN: Chart.js comes from the library's classpath (its WebJar).
'use strict';

(function () {
  const POLL_MILLIS = 1000;
  const HISTORY = 120;
  // The endpoint states, worst first: the order of the cards, the header and the badges.
  const STATES = ['shedding', 'degraded', 'limiting', 'healthy'];
  const STATE_BADGE = { shedding: 'bad', degraded: 'warn', limiting: 'limit', healthy: 'good' };
  const PALETTE = ['#2f6fd0', '#d0343a', '#3c9a5f', '#e0a020', '#8a4fd0', '#1aa3a3',
    '#d05fa0', '#6b6b6b', '#a0522d', '#556b2f'];

  const state = {
    updates: 0,
    labels: [],
    previous: null,        // the last status document, for rates and fractions
    endpoints: new Map(),  // name -> {card, charts, badges}
    queueChart: null,
    classColours: new Map()
  };
  // For tests and the curious: the live state, e.g. overloadDashboard.charts().
  window.overloadDashboard = {
    updates: () => state.updates,
    charts: () => {
      const all = [];
      if (state.queueChart) all.push(state.queueChart);
      state.endpoints.forEach(e => all.push(e.p90, e.rate, e.waiting));
      return all;
    },
    pointCount: () => state.labels.length
  };

  function colour(className) {
    if (!state.classColours.has(className)) {
      state.classColours.set(className, PALETTE[state.classColours.size % PALETTE.length]);
    }
    return state.classColours.get(className);
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function lineChart(canvas, yTitle, y1) {
    const scales = {
      x: { ticks: { maxTicksLimit: 6, autoSkip: true, maxRotation: 0 } },
      y: { beginAtZero: true, title: { display: true, text: yTitle } }
    };
    if (y1) {
      scales.y1 = Object.assign({ position: 'right', beginAtZero: true,
        grid: { drawOnChartArea: false }, title: { display: true, text: y1.title } }, y1.scale);
    }
    return new Chart(canvas, {
      type: 'line',
      data: { labels: state.labels, datasets: [] },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, normalized: true,
        spanGaps: true, elements: { point: { radius: 0 }, line: { borderWidth: 2 } },
        interaction: { mode: 'index', intersect: false },
        plugins: { legend: { labels: { boxWidth: 12, font: { size: 11 } } } },
        scales: scales
      }
    });
  }

  // The dataset with this label, created (padded with gaps so it lines up) on first use.
  function series(chart, label, style) {
    let ds = chart.data.datasets.find(d => d.label === label);
    if (!ds) {
      ds = Object.assign({ label: label, data: new Array(Math.max(0, state.labels.length - 1))
        .fill(null), fill: false, tension: 0 }, style);
      chart.data.datasets.push(ds);
    }
    return ds;
  }

  function push(chart, label, value, style) {
    const ds = series(chart, label, style);
    ds.data.push(value === undefined || value === null || !isFinite(value) ? null : value);
  }

  function trim(chart) {
    chart.data.datasets.forEach(ds => {
      while (ds.data.length > state.labels.length) ds.data.shift();
      while (ds.data.length < state.labels.length) ds.data.push(null);
    });
  }

  /**
   * How much an endpoint needs the operator's eye: the rank of its state, worst first
   * (0 shedding, 1 degraded, 2 limiting, 3 healthy).
   */
  function trouble(e) {
    const i = STATES.indexOf(e.state);
    return i < 0 ? STATES.length : i;
  }

  /** A share as a percentage: "93 %", "0.4 %"; rounding never hides a refusal nor all served. */
  function percent(share) {
    const p = 100 * share;
    if (p >= 99.5 && p < 100) return Math.min(p, 99.9).toFixed(1) + ' %';
    return (p > 0 && p < 9.95 ? p.toFixed(1) : p.toFixed(0)) + ' %';
  }

  /** The state as the operator reads it: "shedding 93 %", "limiting". */
  function stateText(e) {
    return e.state === 'shedding' ? 'shedding ' + percent(e.refusedShare) : e.state;
  }

  /** The header's count per state, worst first, states without endpoints left out. */
  function stateCounts(status) {
    const parts = STATES.filter(s => status.states[s] > 0).map(s => status.states[s] + ' ' + s);
    return status.endpoints.length + ' endpoints' + (parts.length ? ': ' + parts.join(', ') : '');
  }

  /**
   * Endpoints in trouble first, the most troubled on top, each group by name: under load the
   * endpoint that needs attention must not sit below the fold because of its name. Cards are
   * moved only when the order changes (moving a chart's canvas redraws it).
   */
  function inTroubleFirst(endpoints) {
    const wanted = endpoints.slice()
      .sort((a, b) => trouble(a) - trouble(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(e => state.endpoints.get(e.name).card);
    const container = document.getElementById('endpoints');
    const current = Array.from(container.children);
    if (wanted.some((card, i) => current[i] !== card)) {
      wanted.forEach(card => container.appendChild(card));
    }
  }

  function endpointCard(name) {
    const card = el('section', { 'class': 'card', 'data-endpoint': name });
    card.appendChild(el('h2', {}, name));
    const badges = el('div', { 'class': 'badges' });
    card.appendChild(badges);
    const charts = el('div', { 'class': 'charts' });
    card.appendChild(charts);
    function figure(caption) {
      const f = el('figure');
      f.appendChild(el('figcaption', {}, caption));
      const plot = el('div', { 'class': 'plot' });
      const canvas = el('canvas');
      plot.appendChild(canvas);
      f.appendChild(plot);
      charts.appendChild(f);
      return canvas;
    }
    const p90 = lineChart(figure('p90 response time: estimate (solid) vs target (dashed)'),
      'seconds');
    const rate = lineChart(figure('Admission: rate by class, or the concurrency limit and'
      + ' in flight; shed fraction (red, right)'), 'requests/s, or requests at once',
      { title: 'shed %', scale: { max: 100 } });
    const waiting = lineChart(figure('Waiting for a permit; quality level (right)'),
      'requests', { title: 'quality', scale: { max: 1 } });
    document.getElementById('endpoints').appendChild(card);
    return { card: card, badges: badges, p90: p90, rate: rate, waiting: waiting };
  }

  function badge(parent, text, kind) {
    parent.appendChild(el('span', { 'class': 'badge' + (kind ? ' ' + kind : '') }, text));
  }

  function fmt(v, digits) {
    return v === null || v === undefined ? '–' : Number(v).toFixed(digits);
  }

  function classKey(endpoint, cls) {
    return endpoint + '\u0000' + cls;
  }

  function previousClasses() {
    const m = new Map();
    if (state.previous) {
      state.previous.endpoints.forEach(e => e.classes.forEach(c => m.set(classKey(e.name,
        c.name), c)));
    }
    return m;
  }

  function rate(bytesPerSecond) {
    if (bytesPerSecond === null || bytesPerSecond === undefined) return '–';
    const units = [['MB/s', 1e6], ['KB/s', 1e3]];
    for (const [unit, size] of units) {
      if (Math.abs(bytesPerSecond) >= size) return (bytesPerSecond / size).toFixed(1) + ' ' + unit;
    }
    return Math.round(bytesPerSecond) + ' B/s';
  }

  function row(cells) {
    const tr = el('tr');
    cells.forEach(c => tr.appendChild(el('td', {}, String(c))));
    return tr;
  }

  // Bandwidth shares (Li & Jamin): one row per client group.
  function bandwidth(b) {
    const section = document.getElementById('bandwidth');
    section.hidden = !b;
    if (!b) return;
    document.getElementById('bandwidth-total').textContent = 'B ' + rate(b.totalBytesPerSecond)
      + ', measured max ' + rate(b.maxMeasuredBytesPerSecond);
    document.getElementById('bandwidth-groups').replaceChildren(...b.groups.map(g => {
      const tr = row([g.name, rate(g.allocatedBytesPerSecond), rate(g.averageBytesPerSecond),
        g.active ? 'yes' : 'no', g.admitted, g.delayedNow, g.refused]);
      tr.dataset.group = g.name;
      return tr;
    }));
  }

  // The virtual queue (WebQ): the wait a new arrival gets now, capacity, counts.
  function virtualQueue(q) {
    const section = document.getElementById('virtual-queue');
    section.hidden = !q;
    if (!q) return;
    const refusals = Object.entries(q.refusals);
    const refused = refusals.reduce((sum, [, n]) => sum + n, 0);
    const state = document.getElementById('virtual-queue-state');
    state.textContent = q.full ? 'full' : (q.currentWaitSeconds > 0 ? 'waiting' : 'no wait');
    state.className = 'badge ' + (q.full ? 'bad' : (q.currentWaitSeconds > 0 ? 'warn' : 'good'));
    document.getElementById('virtual-queue-row').replaceChildren(row([
      q.full ? 'full' : q.currentWaitSeconds + ' s',
      q.capacitySubunitsPerSecond === null ? 'training'
        : fmt(q.capacitySubunitsPerSecond, 1) + ' /s',
      q.passed, q.tokenAdmitted, q.toldToWait, refused]));
    const badges = document.getElementById('virtual-queue-refusals');
    badges.replaceChildren();
    refusals.filter(([, n]) => n > 0).forEach(([reason, n]) =>
      badge(badges, reason.replace(/_/g, ' ') + ' ' + n, 'warn'));
  }

  // Session-aware admission: mid-session refusals are the number to keep near zero.
  function sessions(s) {
    const section = document.getElementById('sessions');
    section.hidden = !s;
    if (!s) return;
    // A count, not a share: a refusal is of one request, and several may fall on one session.
    const badgeEl = document.getElementById('sessions-state');
    badgeEl.textContent = 'mid-session refusals ' + s.midSessionRefusals;
    badgeEl.className = 'badge ' + (s.midSessionRefusals > 0 ? 'bad' : 'good');
    document.getElementById('sessions-row').replaceChildren(row([
      s.admittedNow, s.admitted, s.newRefused, s.midSessionRefusals, s.completed]));
  }

  function update(status) {
    state.labels.push(new Date().toLocaleTimeString());
    if (state.labels.length > HISTORY) state.labels.shift();
    const before = previousClasses();
    const dt = state.previous ? status.tickerSeconds - state.previous.tickerSeconds : 0;

    if (status.queues) {
      const section = document.getElementById('queues');
      section.hidden = false;
      if (!state.queueChart) {
        state.queueChart = lineChart(document.getElementById('queue-lengths'), 'requests',
          { title: 'LIFO', scale: { max: 1, ticks: { stepSize: 1 } } });
      }
      Object.entries(status.queues.lengths).forEach(([cls, n]) =>
        push(state.queueChart, cls, n, { borderColor: colour(cls), backgroundColor: colour(cls) }));
      push(state.queueChart, 'LIFO mode', status.queues.lifo ? 1 : 0, { yAxisID: 'y1',
        stepped: true, borderColor: 'rgba(208,52,58,0.4)', backgroundColor: 'rgba(208,52,58,0.12)',
        fill: 'origin', borderWidth: 1 });
      trim(state.queueChart);
      state.queueChart.update('none');
      const order = document.getElementById('order');
      order.textContent = status.queues.lifo ? 'browsing LIFO' : 'browsing FIFO';
      order.className = 'badge ' + (status.queues.lifo ? 'bad' : 'good');
      const qb = document.getElementById('queue-badges');
      qb.replaceChildren();
      badge(qb, 'waiting ' + status.queues.waiting);
      badge(qb, 'permits ' + status.queues.permitsInUse + ' / '
        + (status.queues.permitsLimit === null ? '∞' : status.queues.permitsLimit));
      badge(qb, 'order setting ' + status.queues.order);
    }

    bandwidth(status.bandwidth);
    virtualQueue(status.virtualQueue);
    sessions(status.sessions);

    status.endpoints.forEach(e => {
      let view = state.endpoints.get(e.name);
      if (!view) {
        view = endpointCard(e.name);
        state.endpoints.set(e.name, view);
      }
      STATES.forEach(s => view.card.classList.toggle(s, e.state === s));
      view.card.dataset.state = e.state;
      view.card.dataset.trouble = trouble(e);
      view.badges.replaceChildren();
      badge(view.badges, stateText(e), STATE_BADGE[e.state]);
      badge(view.badges, 'quality ' + fmt(e.quality, 2) + (e.degradable ? ' (min '
        + fmt(e.minQuality, 2) + ')' : ''), e.quality < 1 ? 'warn' : null);
      badge(view.badges, e.admissionEnabled ? 'admission on' : 'admission off (degrading)',
        e.admissionEnabled ? null : 'warn');
      if (e.permitsInUse !== null) {
        badge(view.badges, 'permits ' + e.permitsInUse + ' / '
          + (e.permitsLimit === null ? '∞' : e.permitsLimit));
      }
      badge(view.badges, 'waiting ' + e.waiting);
      // Under a concurrency limit the token rate is not enforced: show the group's limit.
      const cl = e.concurrency || null;
      if (cl) {
        badge(view.badges, 'limit ' + cl.limit + ', in flight ' + cl.inFlight + ' (group '
          + cl.group + ')');
        push(view.rate, 'limit', cl.limit, { borderColor: '#333333', backgroundColor: '#333333',
          stepped: true });
        push(view.rate, 'in flight', cl.inFlight, { borderColor: '#2f6fd0',
          backgroundColor: '#2f6fd0' });
      }
      if (e.queueThreshold !== null) badge(view.badges, 'queue threshold ' + e.queueThreshold);

      let arrived = 0;
      let shed = 0;
      e.classes.forEach(c => {
        const col = colour(c.name);
        push(view.p90, c.name + ' p90', c.p90EstimateSeconds, { borderColor: col,
          backgroundColor: col });
        if (c.targetSeconds !== null) {
          push(view.p90, c.name + ' target', c.targetSeconds, { borderColor: col,
            backgroundColor: col, borderDash: [6, 4], borderWidth: 1 });
        }
        if (!cl) {
          push(view.rate, c.name + ' rate', c.admissionRate, { borderColor: col,
            backgroundColor: col });
        }
        const p = before.get(classKey(e.name, c.name));
        if (p) {
          arrived += c.arrivals - p.arrivals;
          shed += (c.outcomes.rejected + c.outcomes.expired)
            - (p.outcomes.rejected + p.outcomes.expired);
        }
        badge(view.badges, c.name + ': p90 ' + fmt(c.p90EstimateSeconds, 3) + ' s / '
          + fmt(c.targetSeconds, 3) + ' s, ' + (cl ? fmt(100 * c.missShare, 0)
          + ' % over target' : fmt(c.admissionRate, 1) + '/s'));
      });
      push(view.rate, 'shed %', arrived > 0 ? 100 * shed / arrived : (dt > 0 ? 0 : null),
        { yAxisID: 'y1', borderColor: '#d0343a', backgroundColor: 'rgba(208,52,58,0.15)',
          fill: 'origin', borderWidth: 1 });
      push(view.waiting, 'waiting', e.waiting, { borderColor: '#2f6fd0',
        backgroundColor: '#2f6fd0' });
      push(view.waiting, 'quality', e.quality, { yAxisID: 'y1', borderColor: '#e0a020',
        backgroundColor: '#e0a020', stepped: true });
      [view.p90, view.rate, view.waiting].forEach(ch => { trim(ch); ch.update('none'); });
    });

    inTroubleFirst(status.endpoints);
    document.getElementById('empty').hidden = status.endpoints.length > 0;
    document.getElementById('summary').textContent = stateCounts(status)
      + (status.queues ? ' · browsing queues '
      + (status.queues.lifo ? 'LIFO' : 'FIFO') : '') + ' · ' + state.labels[state.labels.length
      - 1];
    configBadge(status);
    state.previous = status;
    state.updates++;
    document.body.dataset.updates = state.updates;
  }

  /** The configuration version in force and the last reload's result (docs/reload.md). */
  function configBadge(status) {
    const c = document.getElementById('config');
    if (status.configVersion === undefined) return;
    c.hidden = false;
    const last = status.lastReload;
    c.textContent = 'config v' + status.configVersion
      + (last ? ' · last reload ' + last.result : '');
    c.title = last ? last.time + ': ' + last.message : 'not reloaded since start';
    c.className = 'badge' + (last && last.result === 'refused' ? ' bad' : '');
  }

  function connection(ok, text) {
    const c = document.getElementById('connection');
    c.textContent = text;
    c.className = 'badge ' + (ok ? 'good' : 'bad');
  }

  function poll() {
    fetch('status', { cache: 'no-store', credentials: 'same-origin' })
      .then(r => {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.json();
      })
      .then(status => { update(status); connection(true, 'live'); })
      .catch(err => connection(false, 'no status: ' + err.message))
      .finally(() => setTimeout(poll, POLL_MILLIS));
  }

  poll();
})();
