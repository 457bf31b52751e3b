#!/usr/bin/env bash
# The nightly command as installed: cairn-nightly and its systemd units installed under a prefix
# (with a space in it) from a tree of the built binaries, run with cron's bare PATH against the
# test server, notifying a local receiver. Checks the units with systemd-analyze, the lock, the
# exit statuses, and notifications delivered, refused, timed out, free of the key, and free of
# any photo, name or library path unless the review page is asked for.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
bin=$(swift build --show-bin-path)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cairn nightly.XXXXXX")
pids=()
cleanup() {
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "(kept $tmp)"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# shellcheck source=scripts/checks.sh
. "$(dirname "$0")/checks.sh"
has() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }

# --- install, as a user would ----------------------------------------------------------------
prefix="$tmp/pre fix"
scripts/stage.sh "$bin" "$tmp/stage"
"$tmp/stage/install.sh" "$prefix" > /dev/null
nightly=$prefix/bin/cairn-nightly
units=$prefix/share/systemd/user
check "the script names its tools by absolute path" has "$nightly" "bindir='$prefix/bin'"
check "nothing installed still says @BINDIR@" \
  bash -c '! grep -rl "@BINDIR@" "$1/bin/cairn-nightly" "$1/share/systemd"' _ "$prefix"
check "the service runs the installed script" \
  has "$units/cairn-nightly.service" "ExecStart=\"$prefix/bin/cairn-nightly\""
check "the watcher's service runs the installed cairn-observe" \
  has "$units/cairn-watch.service" "ExecStart=\"$prefix/bin/cairn-observe\" watch"
check "a profile's watcher runs the installed cairn-observe with its profile" \
  has "$units/cairn-watch@.service" "ExecStart=\"$prefix/bin/cairn-observe\" watch --profile %i"
if command -v systemd-analyze > /dev/null; then
  # Unknown keys are only warnings to systemd-analyze: any output fails the check too.
  # A template is verified as an instance of it; the commented credential lines as well.
  mkdir -p "$tmp/units"
  cp "$units/cairn-watch@.service" "$tmp/units/cairn-watch@anna.service"
  sed 's/^#LoadCredential=/LoadCredential=/' "$units/cairn-nightly.service" \
    > "$tmp/units/cairn-nightly.service"
  if out=$(systemd-analyze verify --man=no "$tmp/units/cairn-nightly.service" \
    "$units/cairn-nightly.timer" "$units/cairn-watch.service" \
    "$tmp/units/cairn-watch@anna.service" 2>&1) && [ -z "$out" ]; then
    pass "systemd-analyze verify accepts the installed units"
  else
    fail "systemd-analyze verify: $out"
  fi
elif [ "$(uname -s)" = Linux ]; then
  fail "systemd-analyze is not installed, so the units were not verified (scripts/setup.sh)"
else
  echo "skip - no systemd here: the units were not verified"
fi

# Its completions are hand-written: each must know every option its usage shows.
share=$prefix/share
for completion in "$share/bash-completion/completions/cairn-nightly" \
  "$share/zsh/site-functions/_cairn-nightly" "$share/fish/vendor_completions.d/cairn-nightly.fish"; do
  missing=
  # The options are the usage lines' (the first two), plus --help and --version.
  for option in $("$nightly" --help | sed -n 1,2p | grep -oE -- '--[a-z][a-z-]*') --help --version; do
    grep -qF -- "${option#--}" "$completion" || missing+=" $option"
  done
  check "$(basename "$completion") completes every option${missing:+ (lacks$missing)}" [ -z "$missing" ]
done
check "bash completes --ov to --override-threshold" bash -c '
  source "$1"; COMP_WORDS=(cairn-nightly --ov); COMP_CWORD=1; _cairn_nightly
  [ "${COMPREPLY[*]}" = --override-threshold ]' _ "$share/bash-completion/completions/cairn-nightly"

# --- a server, a library, receivers ----------------------------------------------------------
home=$tmp/home
mkdir -p "$home/.config/cairn"
python3 scripts/make-sample-library.py "$home/Photos" > /dev/null
python3 scripts/demo-scenario.py "$home/Photos" > "$tmp/scenario.json"
"$bin/immich-testserver" --port 0 --scenario "$tmp/scenario.json" > "$tmp/server.url" \
  2> "$tmp/server.log" &
pids+=($!)
start_receiver() { # start_receiver MODE LOG: prints the port
  python3 scripts/notify-receiver.py "$1" "$2" > "$2.port" &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$2.port" ] && break; sleep 0.1; done
}
start_receiver ok "$tmp/received"
start_receiver hang "$tmp/hung"
start_receiver refuse "$tmp/refusing"
for _ in $(seq 100); do [ -s "$tmp/server.url" ] && break; sleep 0.1; done
url=$(head -n 1 "$tmp/server.url")
ok_port=$(cat "$tmp/received.port") hang_port=$(cat "$tmp/hung.port")
refuse_port=$(cat "$tmp/refusing.port")
down_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
[ -n "$url" ] && [ -n "$ok_port" ] && [ -n "$hang_port" ] && [ -n "$refuse_port" ] || { echo "check-nightly: setup failed"; exit 1; }

# The config file as a user writes it; each run adds its own settings through the environment.
cat > "$home/.config/cairn/config" <<EOF
IMMICH_URL=$url
IMMICH_API_KEY=demo-secret
CAIRN_LIBRARY="~/Photos::~/Photos/"   # the library, as a hand may write it: one root
CAIRN_NOTIFY_URL=http://127.0.0.1:$ok_port/hook?token=t0k3n
EOF
chmod 600 "$home/.config/cairn/config"

# run NAME [VAR=value...] [-- ARGS]: cairn-nightly as cron starts it (PATH without the
# prefix, HOME set); stdout, stderr and status in $tmp/NAME.{out,err,status}, seconds in .secs
run() {
  local name=$1; shift
  local vars=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  [ "${1:-}" = -- ] && shift
  local started status=0
  started=$(date +%s)
  (cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" ${vars[@]+"${vars[@]}"} \
    "$nightly" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err") || status=$?
  echo "$status" > "$tmp/$name.status"
  echo $(($(date +%s) - started)) > "$tmp/$name.secs"
}
status_of() { cat "$tmp/$1.status"; }
received() { [ -f "$tmp/received" ] && wc -l < "$tmp/received" || echo 0; }
last_received() { tail -n 1 "$tmp/received"; }
trashed_on_server() { curl -s "$url/__testserver/state" | jq '.trashedIds | length'; }

# 1. The first run seeds and trashes nothing; nothing needs a person, so no notification.
run seed
check "the seeding run exits 0" [ "$(status_of seed)" = 0 ]
check "the seeding run says what it did on stdout" has "$tmp/seed.out" "cairn-nightly: trashed 0 (+0 Live Photo videos)"
check "the seeding run notifies nobody" [ "$(received)" = 0 ]
check "the seeding run scanned CAIRN_LIBRARY's one root, ~ read as home" \
  jq -se --arg root "$home/Photos" '.[0].roots == [$root]' "$home/.local/state/cairn/nightly/plan.ndjson"

# 2. Three files deleted (one a Live Photo pair): the first run that finds them is a dry run.
rm "$home/Photos/2024/06/IMG_0003.PNG" "$home/Photos/2024/07/IMG_0042.PNG" \
  "$home/Photos/2024/07/IMG_0042.MOV"
run dry CAIRN_NOTIFY_COMMAND='env > "$HOME/command.env"; cat > "$HOME/command.in"'
check "the dry run exits 0" [ "$(status_of dry)" = 0 ]
check "the dry run trashed nothing" [ "$(trashed_on_server)" = 0 ]
check "the dry run's webhook is the generic JSON shape" \
  jq -e '.path == "/hook?token=t0k3n" and .headers["content-type"] == "application/json"
    and (.body | fromjson | .source == "cairn" and .event == "dry-run" and .status == 0
      and .counts.wouldTrash == 2)' <<< "$(last_received)"
check "the command got the message on stdin" has "$home/command.in" "2 asset(s) would be trashed"
check "the command got the event in its environment" has "$home/command.env" "CAIRN_EVENT=dry-run"
check "the command's environment lacks the API key" lacks "$home/command.env" "demo-secret"

# 3. The real run trashes them, and says so in ntfy's shape.
run real CAIRN_NOTIFY_FORMAT=ntfy
check "the real run exits 0" [ "$(status_of real)" = 0 ]
check "the real run trashed 3 on the server" [ "$(trashed_on_server)" = 3 ]
check "the real run's summary counts the Live Photo video apart" \
  has "$tmp/real.out" "cairn-nightly: trashed 2 (+1 Live Photo videos)"
check "ntfy gets the title header and a text body naming the undo command" \
  jq -e '.headers.title == "cairn: trashed 2" and .headers.tags == "cairn,trashed"
    and (.body | test("Undo: cairn-restore --run-id "))' <<< "$(last_received)"

# 4. A refusal: one deletion is above a 1% threshold with floor 1. The service must fail (25),
#    and the notification names the rail and the one command that proceeds.
rm "$home/Photos/2024/07/IMG_0004.PNG"
run refused CAIRN_FLOOR=1 CAIRN_NOTIFY_FORMAT=gotify
check "a refusal exits 25" [ "$(status_of refused)" = 25 ]
check "a refusal trashed nothing" [ "$(trashed_on_server)" = 3 ]
check "gotify gets title, message and priority, naming the threshold rail" \
  jq -e '.body | fromjson | .title == "cairn: refused by the threshold rail" and .priority == 8
    and (.message | test("cairn-nightly --override-threshold [0-9a-f]{64}"))' \
  <<< "$(last_received)"
reviews=$home/.local/state/cairn/reviews
pages() { find "$reviews" -maxdepth 1 -name 'review-*.html' 2>/dev/null | sort; }
check "the threshold refusal keeps its review page" [ "$(pages | wc -l)" = 1 ]
check "a kept page is private (0600)" [ "$(stat -c %a "$(pages | tail -n 1)")" = 600 ]
check "the refusal's notification names the page" \
  jq -e --arg page "$(pages | tail -n 1)" '.body | fromjson | .message | contains("Review page: " + $page)' \
  <<< "$(last_received)"
check "the kept page is the plan the gate refused" has "$(pages | tail -n 1)" "refused by the threshold rail"
proceed=$(last_received | jq -r '.body | fromjson | .message' \
  | grep -oE 'cairn-nightly --override-threshold [0-9a-f]{64}' | cut -d' ' -f2-)
run proceed CAIRN_FLOOR=1 -- $proceed
check "the command the refusal named proceeds" [ "$(status_of proceed)" = 0 ]
check "and trashes exactly that plan" [ "$(trashed_on_server)" = 4 ]

# 5. Strict mode: a deletion waits for review, and the notification says how to approve it.
rm "$home/Photos/2025/01/IMG_0101.PNG"
run review CAIRN_STRICTNESS=strict CAIRN_REVIEW_IN_IMMICH=on
check "a run with items pending review exits 0" [ "$(status_of review)" = 0 ]
check "the review notification names the approve command" \
  jq -e '(.body | fromjson | .event == "review" and .counts.pending == 1
    and (.message | test("cairn-nightly --approve all-pending")))' <<< "$(last_received)"
check "with review in Immich on, it links to the review tag's page in the web app" \
  jq -e '.body | fromjson | .message | test("/tags[?]path=cairn/v1/review ")' \
  <<< "$(last_received)"
check "the review run's page is kept and named in the JSON" \
  jq -e --arg page "$(pages | tail -n 1)" '.body | fromjson | .reviewPage == $page' <<< "$(last_received)"
check "two pages are kept by now" [ "$(pages | wc -l)" = 2 ]
check "the review page shows the pending photo" has "$(pages | tail -n 1)" "IMG_0101.PNG"
run approve CAIRN_STRICTNESS=strict -- --approve all-pending
check "approving it trashes it" [ "$(trashed_on_server)" = 5 ]
check "a run that needs no decision keeps no page" [ "$(pages | wc -l)" = 2 ]
# A decision tag set in Immich on an asset that waits for nothing changes nothing, and the
# person who set it is told, though the stages run with -q.
api=(curl -sSf -H 'x-api-key: demo-secret' -H 'Content-Type: application/json')
tag_id=$("${api[@]}" -X PUT --data '{"tags":["cairn/v1/approve"]}' "$url/api/tags" | jq -r '.[0].id')
asset_id=$("${api[@]}" -X POST --data '{"size":1}' "$url/api/search/metadata" | jq -r '.assets.items[0].id')
"${api[@]}" -X PUT --data "{\"tagIds\":[\"$tag_id\"],\"assetIds\":[\"$asset_id\"]}" \
  "$url/api/tags/assets" > /dev/null
run misplaced CAIRN_REVIEW_IN_IMMICH=on
check "a run with a decision tag on a photo that waits for nothing exits 0" [ "$(status_of misplaced)" = 0 ]
check "and notifies that the tag changed nothing, naming the photo" \
  jq -e --arg id "$asset_id" '.body | fromjson | .event == "ignored-tags" and (.message | contains($id))' \
  <<< "$(last_received)"
check "nothing more was trashed" [ "$(trashed_on_server)" = 5 ]
"${api[@]}" -X DELETE --data "{\"ids\":[\"$asset_id\"]}" "$url/api/tags/$tag_id/assets" > /dev/null

# 6. A deletion confirmed in a trash folder is held in quarantine; from CAIRN_NOTIFY_BACKLOG
#    held items on, each run says so.
mkdir -p "$home/Photos/.stversions"
mv "$home/Photos/2025/01/IMG_0100.PNG" "$home/Photos/.stversions/"
#    The README's notifier, ntfy.sh, with the defaults: reached through a proxy that is the
#    local receiver (curl sends it the whole request), it gets the text and no review page.
ntfy_sh=(CAIRN_NOTIFY_URL=http://ntfy.sh/my-cairn-topic CAIRN_NOTIFY_FORMAT=ntfy
  http_proxy=http://127.0.0.1:$ok_port)
sleep 1 # kept pages are named by the second
run backlog CAIRN_NOTIFY_BACKLOG=1 "${ntfy_sh[@]}"
check "a run with items held exits 0" [ "$(status_of backlog)" = 0 ]
check "the held deletion is not trashed" [ "$(trashed_on_server)" = 5 ]
check "the backlog is notified to ntfy.sh as text naming the page on this machine, no page attached" \
  jq -e '.method == "POST" and .path == "http://ntfy.sh/my-cairn-topic"
    and (.headers.filename == null) and .headers.tags == "cairn,backlog"
    and (.body | test("1 item\\(s\\) held in quarantine.*\\nReview page: .*/review-[0-9TZ]+[.]html"))
    and (.body | contains("<") | not)' <<< "$(last_received)"
#    Asked for by its own setting, the run's review page goes along as an attachment: a PUT
#    of the file (to the receiver's /opt-in, which the check of what the defaults send skips).
sleep 1
run backlog_page CAIRN_NOTIFY_BACKLOG=1 CAIRN_NOTIFY_FORMAT=ntfy \
  CAIRN_NOTIFY_URL=http://127.0.0.1:$ok_port/opt-in CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=on
check "with CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=on the review page is attached" \
  jq -e --arg name "$(basename "$(pages | tail -n 1)")" '.method == "PUT" and .path == "/opt-in"
    and .headers.filename == $name and .headers.tags == "cairn,backlog"
    and (.headers.message | test("1 item\\(s\\) held in quarantine.*\\\\nReview page: "))
    and (.body | startswith("<!doctype html>"))' <<< "$(last_received)"
sleep 1
run backlog_public CAIRN_NOTIFY_BACKLOG=1 CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=yes "${ntfy_sh[@]}" \
  CAIRN_NOTIFY_URL=http://ntfy.sh/opt-in
check "attaching it to a public service is said on stderr" \
  has "$tmp/backlog_public.err" "attaching the review page to ntfy.sh, a public service"
# A page over the attachment limit is named, not sent; and only the newest CAIRN_REVIEW_KEEP stay.
sleep 1
run backlog_big CAIRN_NOTIFY_BACKLOG=1 CAIRN_NOTIFY_FORMAT=ntfy CAIRN_NOTIFY_ATTACH_MAX=1000 \
  CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=on CAIRN_NOTIFY_URL=http://127.0.0.1:$ok_port/opt-in \
  CAIRN_REVIEW_KEEP=2
check "a page over the limit is not attached" \
  jq -e '.method == "POST" and (.headers.filename == null) and (.body | test("Review page: .*review-"))' \
  <<< "$(last_received)"
check "and the run says why" has "$tmp/backlog_big.err" "is over CAIRN_NOTIFY_ATTACH_MAX (1000)"
check "only the newest 2 pages are kept" [ "$(pages | wc -l)" = 2 ]
check "the newest is this run's" has "$tmp/received" "$(basename "$(pages | tail -n 1)")"
before=$(received)
run quiet
check "below the backlog threshold (default 20) nobody is told" [ "$(received)" = "$before" ]

# 7. A failed run: the server is unreachable. The status is the stage's, and it is notified.
before=$(received)
run failed IMMICH_URL=http://127.0.0.1:$down_port CAIRN_HTTP_ATTEMPTS=1 CAIRN_HTTP_TIMEOUT=3
check "a run against an unreachable server fails with 69" [ "$(status_of failed)" = 69 ]
check "the failure is notified" [ "$(received)" = $((before + 1)) ]
check "the failure notification names the stage and status" \
  jq -e '.body | fromjson | .event == "failed" and .status == 69
    and (.message | test("cairn-(observe|reconcile|fetch) exited 69"))' \
  <<< "$(last_received)"
nightly_log=$home/.local/state/cairn/nightly/stderr.log
check "and where the stages' messages are on this machine" \
  jq -e --arg log "$nightly_log" '.body | fromjson | .message | contains("Its messages: " + $log)' \
  <<< "$(last_received)"
check "but none of those messages, which can name photos and folders" bash -c '
  message=$(jq -r ".body | fromjson | .message" <<< "$1")
  [ -s "$2" ] || exit 1
  while IFS= read -r line; do
    [ -z "$line" ] || [[ $message != *"${line#*: }"* ]] || exit 1
  done < "$2"' _ "$(last_received)" "$nightly_log"

# 8. Notifiers that are down or hang never fail the run or hold it past the timeout.
run down IMMICH_URL=http://127.0.0.1:$down_port CAIRN_HTTP_ATTEMPTS=1 CAIRN_HTTP_TIMEOUT=3 CAIRN_NOTIFY_URL=http://127.0.0.1:$down_port/
check "a notifier that is down leaves the run's status alone" [ "$(status_of down)" = 69 ]
check "and is reported on stderr" has "$tmp/down.err" "notification was not delivered"
rm "$home/Photos/2024/06/IMG_0002.PNG"
run refusing CAIRN_NOTIFY_URL=http://127.0.0.1:$refuse_port/
check "a notifier that refuses the message leaves the run's status alone" \
  [ "$(status_of refusing)" = 0 ]
check "the run still trashed" [ "$(trashed_on_server)" = 6 ]
check "the refused message reached the receiver" has "$tmp/refusing" "cairn: trashed 1"
check "and its refusal is reported" has "$tmp/refusing.err" "notification was not delivered (curl status 22)"
run hang CAIRN_NOTIFY_TIMEOUT=2 CAIRN_NOTIFY_URL=http://127.0.0.1:$hang_port/ \
  CAIRN_NOTIFY_COMMAND='sleep 60' -- --notify-test
check "a notifier that hangs is given up on within the timeout" [ "$(cat "$tmp/hang.secs")" -le 10 ]
check "and the hang is reported" has "$tmp/hang.err" "notification was not delivered"
check "a hanging command is given up on too" has "$tmp/hang.err" "command failed or timed out"

# 9. Runs never overlap: while another holds the lock, a run does nothing and exits 75.
flock "$home/.local/state/cairn/nightly.lock" sleep 5 &
pids+=($!)
sleep 0.5
run busy
check "a run while another holds the lock exits 75" [ "$(status_of busy)" = 75 ]
check "at once" [ "$(cat "$tmp/busy.secs")" -le 3 ]

# 10. A server newer than cairn was tested with is named once per version: in the summary and
# in a notification when nothing else needed one.
jq '.version = "v3.3" | .reportedVersion = "3.4.0"' "$tmp/scenario.json" > "$tmp/newer.json"
"$bin/immich-testserver" --port 0 --scenario "$tmp/newer.json" > "$tmp/newer.url" \
  2> "$tmp/newer.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/newer.url" ] && break; sleep 0.1; done
newer_url=$(head -n 1 "$tmp/newer.url")
flock "$home/.local/state/cairn/nightly.lock" true # until step 9's holder lets go
before=$(received)
run newer IMMICH_URL="$newer_url"
check "a run against a newer server exits 0" [ "$(status_of newer)" = 0 ]
check "its summary names the newer server" has "$tmp/newer.out" \
  "cairn-nightly: warning: Immich 3.4.0 is newer than 3.3.1"
check "and it notifies" jq -e '.body | fromjson | .event == "newer-server"' <<< "$(last_received)"
check "once" [ "$(received)" = $((before + 1)) ]
run newer_again IMMICH_URL="$newer_url"
check "the next run does not say it again" bash -c '! grep -q "newer than" "$1"' _ "$tmp/newer_again.out"

# 10b. A refusal that names a folder of the library (an empty root, as an unmounted card
#     looks) tells the notifier who refused, not the folder.
mkdir -p "$home/Photos Card"
before=$(received)
run emptyroot -- "$home/Photos Card"
check "a run over an empty root is refused (25)" [ "$(status_of emptyroot)" = 25 ]
check "its diagnostics name the root" has "$tmp/emptyroot.err" "$home/Photos Card"
check "it is notified as a refusal, with where its reason is" [ "$(received)" = $((before + 1)) ]
check "naming the stage and where the reason is" jq -e '.body | fromjson | .event == "refused"
  and (.message | test("^cairn-reconcile refused; nothing was trashed[.]\nWhy, in full: /"))' \
  <<< "$(last_received)"
check "but not the root" bash -c '! grep -qF "Photos Card" <<< "$1"' _ "$(last_received)"

# 10c. --notify-test says when the notifier is a public service, and what goes there.
run public_test "${ntfy_sh[@]}" -- --notify-test
check "--notify-test says ntfy.sh is a public service" \
  has "$tmp/public_test.err" "ntfy.sh is a public service: anyone who knows the address can read"
check "and that notifications carry nothing of a photo" \
  has "$tmp/public_test.err" "notifications carry counts and commands, no photo, name or path"
check "the test message went to ntfy.sh (here, through the local proxy)" \
  jq -e '.path == "http://ntfy.sh/my-cairn-topic" and .headers.tags == "cairn,test"' \
  <<< "$(last_received)"
run public_page_test "${ntfy_sh[@]}" CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=on -- --notify-test
check "with the page asked for, it says the page goes there too" has "$tmp/public_page_test.err" \
  "ntfy gets the review page, with the photos' thumbnails, names and folders, on ntfy.sh"
for own in http://ntfy.example.net/cairn http://myntfy.sh/cairn "http://127.0.0.1:$ok_port/x"; do
  run own_test "${ntfy_sh[@]}" CAIRN_NOTIFY_URL="$own" -- --notify-test
  check "a self-hosted notifier ($own) is not called public, and what it gets is said" bash -c '
    ! grep -q public "$1" && grep -qF "notifications carry counts and commands" "$1"' \
    _ "$tmp/own_test.err"
done

# 10d. Whatever the runs above sent with the defaults (all but the receiver's /opt-in) carries
#      nothing of a photo: no page, no picture, no name, no folder of the library.
check "with the defaults, no notification carries a photo, its name or a library path" \
  bash -c '! jq -c "select(.path | endswith(\"/opt-in\") | not)" "$1" \
    | grep -e "IMG_0" -e "$2" -e "Photos Card" -e "<!doctype" -e "data:image"' \
  _ "$tmp/received" "$home/Photos"

# 11. The key is in no notification, no output and no diagnostics.
check "the API key appears in nothing received or printed" \
  bash -c '! grep -l demo-secret "$1"/received "$1"/refusing "$1"/*.out "$1"/*.err' _ "$tmp"

# 11. Two profiles, a household: Anna's and Ben's phones, each to its own server and account,
#     Ben's key in a file. One profile's refusal or failure never stops the other; each
#     summary and notification names its profile; the exit status is the worst.
home=$tmp/household
mkdir -p "$home/.config/cairn"
ben_pid=
for who in anna ben; do
  python3 scripts/make-sample-library.py "$home/$who" > /dev/null
  python3 scripts/demo-scenario.py "$home/$who" | sed "s/demo-secret/$who-secret/" > "$tmp/$who.json"
  "$bin/immich-testserver" --port 0 --scenario "$tmp/$who.json" > "$tmp/$who.url" \
    2> "$tmp/$who.log" &
  pids+=($!)
  ben_pid=$!
done
for _ in $(seq 100); do [ -s "$tmp/anna.url" ] && [ -s "$tmp/ben.url" ] && break; sleep 0.1; done
anna_url=$(head -n 1 "$tmp/anna.url") ben_url=$(head -n 1 "$tmp/ben.url")
printf 'ben-secret\n' > "$home/.config/cairn/ben.key"
chmod 600 "$home/.config/cairn/ben.key"
cat > "$home/.config/cairn/config" <<EOF
CAIRN_NOTIFY_URL=http://127.0.0.1:$ok_port/household   # shared by both profiles

[profile anna]
IMMICH_URL=$anna_url
IMMICH_API_KEY=anna-secret
CAIRN_LIBRARY=$home/anna

[profile ben]   # his key is in a file beside this one
IMMICH_URL=$ben_url
IMMICH_API_KEY_FILE=ben.key
CAIRN_LIBRARY=$home/ben
CAIRN_FLOOR=1
EOF
chmod 600 "$home/.config/cairn/config"
trashed_at() { curl -s "$1/__testserver/state" | jq '.trashedIds | length'; }
household() { # the household's notifications, matching the jq filter $1
  jq -e -s "map(select(.path == \"/household\") | .body | fromjson) | $1" "$tmp/received"
}

run seed2
check "both profiles seed: exit 0" [ "$(status_of seed2)" = 0 ]
check "each profile's summary names it" bash -c '
  grep -qx "cairn-nightly: anna: trashed 0 (+0 Live Photo videos), 0 pending review, 0 held" "$1" &&
  grep -qx "cairn-nightly: ben: trashed 0 (+0 Live Photo videos), 0 pending review, 0 held" "$1"' \
  _ "$tmp/seed2.out"
check "each profile keeps its own state" \
  [ "$(ls "$home/.local/state/cairn/servers" | wc -l)" = 2 ]

rm "$home/anna/2024/06/IMG_0003.PNG" "$home/ben/2024/06/IMG_0003.PNG"
run split
check "Ben's threshold refusal makes the run's status 25" [ "$(status_of split)" = 25 ]
check "Anna's profile still ran: a dry run" \
  has "$tmp/split.out" "cairn-nightly: anna: dry run, would trash 1, 0 pending review, 0 held"
check "Ben's summary says his profile refused" \
  has "$tmp/split.out" "cairn-nightly: ben: refused by the threshold rail; nothing was trashed"
check "Ben's refusal is notified under his name, with the command for his profile" household '
  any(.event == "refused" and .profile == "ben"
    and (.title | startswith("cairn (ben): refused"))
    and (.message | test("cairn-nightly --profile ben --override-threshold [0-9a-f]{64}")))'
check "Anna's dry run is notified under hers" household '
  any(.event == "dry-run" and .profile == "anna" and (.title | startswith("cairn (anna): ")))'

kill "$ben_pid"
wait "$ben_pid" 2> /dev/null || true
run onedown CAIRN_HTTP_ATTEMPTS=1 CAIRN_HTTP_TIMEOUT=3
check "Ben's server down: the run's status is his failure, 69" [ "$(status_of onedown)" = 69 ]
check "and Anna's profile trashed all the same" [ "$(trashed_at "$anna_url")" = 1 ]
check "her summary says so" has "$tmp/onedown.out" "cairn-nightly: anna: trashed 1"
check "his says why he failed" has "$tmp/onedown.out" "cairn-nightly: ben: failed:"

rm "$home/anna/2024/07/IMG_0004.PNG"
run anna_only -- --profile anna
check "--profile runs that profile alone" bash -c '
  grep -q "anna: trashed 1" "$1" && ! grep -q "ben:" "$1"' _ "$tmp/anna_only.out"
check "and exits with its status" [ "$(status_of anna_only)" = 0 ]
run carl -- --profile carl
check "an unknown profile is a configuration error (78)" [ "$(status_of carl)" = 78 ]
check "naming the profiles there are" has "$tmp/carl.err" "no profile 'carl'"
run notify_names CAIRN_NOTIFY_COMMAND='echo "$CAIRN_PROFILE" >> "$HOME/profiles.seen"' -- --notify-test
check "--notify-test reaches each profile's notifier, naming it" \
  [ "$(tr '\n' ' ' < "$home/profiles.seen")" = "anna ben " ]
run folders -- "$home/anna"
check "a folder with several profiles needs --profile (64)" [ "$(status_of folders)" = 64 ]

chmod 644 "$home/.config/cairn/ben.key"
run openkey -- --profile ben
check "a key file others can read is refused (78)" [ "$(status_of openkey)" = 78 ]
check "with a line that says so" \
  has "$tmp/openkey.err" "ben.key: the API key file is readable by other users"
chmod 600 "$home/.config/cairn/ben.key"
chmod 640 "$home/.config/cairn/config"
run openconfig
check "a config file others can read is refused (78)" [ "$(status_of openconfig)" = 78 ]
check "before any profile ran" lacks "$tmp/openconfig.out" "anna:"
chmod 600 "$home/.config/cairn/config"
check "bash completes the config's profiles after --profile" bash -c '
  source "$1"; XDG_CONFIG_HOME=$2; COMP_WORDS=(cairn-nightly --profile b); COMP_CWORD=2
  _cairn_nightly; [ "${COMPREPLY[*]}" = ben ]' _ "$share/bash-completion/completions/cairn-nightly" \
  "$home/.config"
check "no key of either profile appears in anything received or printed" \
  bash -c '! grep -l -e anna-secret -e ben-secret "$1"/received "$1"/*.out "$1"/*.err' _ "$tmp"

# 12. Everything installed is uninstalled: `make uninstall` leaves no file of cairn's.
make -s uninstall PREFIX="$prefix" > /dev/null
left=$(cd "$prefix" && find . ! -type d | sort | tr '\n' ' ')
check "make uninstall leaves nothing install put there${left:+ (left: $left)}" [ -z "$left" ]
DESTDIR="$tmp/dest dir" "$tmp/stage/install.sh" /opt/cairn > /dev/null
make -s uninstall DESTDIR="$tmp/dest dir" PREFIX=/opt/cairn > /dev/null
left=$(cd "$tmp/dest dir" && find . ! -type d | sort | tr '\n' ' ')
check "and with DESTDIR too${left:+ (left: $left)}" [ -z "$left" ]

if [ $failures -gt 0 ]; then
  echo "check-nightly: $failures check(s) failed (KEEP=1 keeps $tmp)"
  exit 1
fi
echo "check-nightly: every check passed"
