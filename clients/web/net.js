// The WebSocket link to the box: one JSON object per text frame, request ids, liveness
// (ping an idle link, declare a silent one dead) and reconnection. It owns no game state and
// never interprets messages beyond `pong`; the shell decides what to send after (re)connecting.

const BACKOFF_MS = [0, 250, 500, 1000, 2000, 3000, 5000];

export class Link {
  constructor({ onOpen, onMessage, onStatus }) {
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.nextId = 1;
    this.auto = true; // reconnect by itself when the link drops
    this.attempt = 0;
    this.timer = null;
    this.pingAfter = 5000;
    this.deadAfter = 25000;
    this.lastIn = 0;
    this.lastOut = 0;
    this.probe = null;
    setInterval(() => this.tick(), 1000);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = old.onmessage = old.onopen = old.onerror = null;
      try { old.close(); } catch { /* already closed */ }
    }
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.dropped();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.lastIn = this.lastOut = Date.now();
      this.onStatus("open");
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      this.lastIn = Date.now();
      if (typeof ev.data !== "string") return;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "pong") {
        clearTimeout(this.probe);
        this.probe = null;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws === ws) {
        this.ws = null;
        this.dropped();
      }
    };
  }

  dropped() {
    this.onStatus(this.auto ? "reconnecting" : "closed");
    if (!this.auto) return;
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  // Reconnect at once (page back in the foreground, network back): keep an open link only
  // after it proves alive with a pong.
  check() {
    if (!this.auto) return;
    if (!this.open) {
      this.attempt = Math.max(this.attempt, 1);
      this.connect();
      return;
    }
    this.send({ type: "ping" });
    clearTimeout(this.probe);
    this.probe = setTimeout(() => { this.attempt = 1; this.connect(); }, 2000);
  }

  send(msg) {
    if (!this.open) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    this.lastOut = Date.now();
    return id;
  }

  stop() {
    this.auto = false;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }

  resume() {
    this.auto = true;
    this.attempt = 0;
    this.connect();
  }

  tick() {
    if (!this.open) return;
    const now = Date.now();
    if (now - this.lastIn > this.deadAfter) {
      this.attempt = 1;
      this.connect();
    } else if (now - this.lastOut > this.pingAfter) {
      // The box's silence clock counts only what it hears from us: a page that only watches
      // (a spectator, a seat waiting through computer moves) must still speak.
      this.send({ type: "ping" });
    }
  }
}
