;; Validates a JSON text and builds its tape (see json-tape.ts): one 8-field record per value, in
;; text order, without creating any value; then, on request, finds where words may start in the
;; text (`find`, for `withJsonTape`'s word search). The source of json-tape-wasm.ts:
;; `pnpm build:wasm` compiles this file with wabt and a core test fails when the two differ.
;;
;; The text is given as UTF-16 code units (2 bytes each, little-endian) from byte 0, as
;; JavaScript holds it; the 64 bytes after it must be zero. Records are written from
;; $records (8-byte aligned, past the padding and the scratch space `find` uses) on, and memory
;; grows as they need it.
;;
;; It accepts exactly what JSON.parse accepts (RFC 8259): the four whitespace characters, the
;; three literals, numbers by the grammar (no leading zeros, a digit after `.` and after the
;; exponent's sign), strings without raw control characters and with only the escapes \" \\ \/
;; \b \f \n \r \t \uXXXX (lone surrogates are accepted, raw or escaped, as JSON.parse does), and
;; no trailing commas. Runs of whitespace and string bodies are skipped 16 units at a time: two
;; 8-lane loads clamped to 0xFF and narrowed to one 16-lane byte vector, so no unit above 0xFF
;; can look like an ASCII one (written out at each use: a call costs the loops a fifth); a lane
;; from 0x80 on marks a unit beyond ASCII, which flags the string or key. (Whitespace needs no
;; clamp: narrowed as it is, a unit above 0xFF reads as 0xFF or 0, and neither is whitespace.)
(module
  ;; The caller makes the memory, sized for the text from the start: JavaScript views of a
  ;; memory that grows are detached, and one detach in a process slows every typed-array loop in
  ;; it (V8 then checks each access).
  (import "env" "memory" (memory 1))

  ;; The end of the number starting at $p, or -1 when it breaks the grammar.
  (func $number (param $p i32) (result i32)
    (local $c i32)
    (if (i32.eq (i32.load16_u (local.get $p)) (i32.const 45))
      (then (local.set $p (i32.add (local.get $p) (i32.const 2)))))
    (local.set $c (i32.load16_u (local.get $p)))
    (if (i32.eq (local.get $c) (i32.const 48))
      (then (local.set $p (i32.add (local.get $p) (i32.const 2))))
      (else
        (if (i32.ge_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 9))
          (then (return (i32.const -1))))
        (loop $digits
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (br_if $digits
            (i32.lt_u (i32.sub (i32.load16_u (local.get $p)) (i32.const 48)) (i32.const 10))))))
    ;; A fraction: a dot and at least one digit.
    (if (i32.eq (i32.load16_u (local.get $p)) (i32.const 46))
      (then
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (if (i32.ge_u (i32.sub (i32.load16_u (local.get $p)) (i32.const 48)) (i32.const 10))
          (then (return (i32.const -1))))
        (loop $fraction
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (br_if $fraction
            (i32.lt_u (i32.sub (i32.load16_u (local.get $p)) (i32.const 48)) (i32.const 10))))))
    ;; An exponent: e or E, an optional sign, at least one digit.
    (if (i32.eq (i32.or (i32.load16_u (local.get $p)) (i32.const 32)) (i32.const 101))
      (then
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (local.set $c (i32.load16_u (local.get $p)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
          (then (local.set $p (i32.add (local.get $p) (i32.const 2)))))
        (if (i32.ge_u (i32.sub (i32.load16_u (local.get $p)) (i32.const 48)) (i32.const 10))
          (then (return (i32.const -1))))
        (loop $exponent
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (br_if $exponent
            (i32.lt_u (i32.sub (i32.load16_u (local.get $p)) (i32.const 48)) (i32.const 10))))))
    (local.get $p))

  ;; The end of the literal starting at $p (true, false or null), or -1.
  (func $literal (param $p i32) (result i32)
    (local $word i64)
    (local.set $word (i64.load (local.get $p)))
    ;; Four UTF-16 units, little-endian: t r u e, n u l l, f a l s (then e).
    (if (i64.eq (local.get $word) (i64.const 0x0065007500720074))
      (then (return (i32.add (local.get $p) (i32.const 8)))))
    (if (i64.eq (local.get $word) (i64.const 0x006c006c0075006e))
      (then (return (i32.add (local.get $p) (i32.const 8)))))
    (if (i32.and
          (i64.eq (local.get $word) (i64.const 0x0073006c00610066))
          (i32.eq (i32.load16_u offset=8 (local.get $p)) (i32.const 101)))
      (then (return (i32.add (local.get $p) (i32.const 10)))))
    (i32.const -1))

  ;; Validates the text in bytes [0, $end) and writes its records from $records on. Returns the
  ;; number of records, -1 when the text is not JSON, -2 when memory could not grow.
  (func (export "build") (param $end i32) (param $records i32) (result i32)
    (local $p i32) (local $c i32) (local $mask i32) (local $v v128)
    (local $state i32) (local $rec i32) (local $limit i32) (local $count i32)
    (local $open i32) (local $at i32) (local $kind i32) (local $flags i32)
    (local $key_start i32) (local $key_end i32) (local $key_flags i32) (local $high i32)
    (local $passed v128)
    ;; States: 0 a value; 1 a value or `]`; 2 a key or `}`; 3 a key; 4 `:`; 5 `,` or a close;
    ;; 6 only whitespace (the root is complete).
    (local.set $open (i32.const -1))
    (local.set $rec (local.get $records))
    (local.set $limit (i32.shl (memory.size) (i32.const 16)))
    (block $invalid
      (block $finished
        (loop $next
          ;; Skip whitespace: one unit at a time, then 16 at a time for a longer run.
          (block $skipped
            (loop $whitespace
              (local.set $c (i32.load16_u (local.get $p)))
              (br_if $skipped
                (i32.eqz
                  (i32.or
                    (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
                    (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9))))))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (br_if $whitespace (i32.ne (local.get $c) (i32.const 10)))
              ;; After a line break, indentation: skip it by vectors (narrowed as they are: a
              ;; unit past 0xFF reads as 0xFF, or from 0x8000 on as 0, and neither is whitespace).
              (loop $run
                (local.set $v
                  (i8x16.narrow_i16x8_u
                    (v128.load (local.get $p))
                    (v128.load offset=16 (local.get $p))))
                (local.set $mask
                  (i32.xor
                    (i8x16.bitmask
                      (v128.or
                        (v128.or
                          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 32)))
                          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10))))
                        (v128.or
                          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 13)))
                          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 9))))))
                    (i32.const 0xffff)))
                (if (i32.eqz (local.get $mask))
                  (then
                    (local.set $p (i32.add (local.get $p) (i32.const 32)))
                    (br $run))))
              (local.set $p
                (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $mask)) (i32.const 1))))
              (br $whitespace)))
          (br_if $finished (i32.ge_u (local.get $p) (local.get $end)))

          ;; `:` after a key.
          (if (i32.eq (local.get $state) (i32.const 4))
            (then
              (br_if $invalid (i32.ne (local.get $c) (i32.const 58)))
              (local.set $state (i32.const 0))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (br $next)))

          ;; `,` or a close after a member or an item.
          (if (i32.eq (local.get $state) (i32.const 5))
            (then
              (if (i32.eq (local.get $c) (i32.const 44))
                (then
                  (local.set $state
                    (select (i32.const 3) (i32.const 0)
                      (i32.eq
                        (i32.load (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5))))
                        (i32.const 1))))
                  (local.set $p (i32.add (local.get $p) (i32.const 2)))
                  (br $next)))))

          ;; A key (or `}` right after `{`).
          (if (i32.or (i32.eq (local.get $state) (i32.const 2)) (i32.eq (local.get $state) (i32.const 3)))
            (then
              (if (i32.eq (local.get $c) (i32.const 34))
                (then
                  (local.set $key_start (local.get $p))
                  (local.set $key_flags (i32.const 0))
                  (local.set $high (i32.const 0))
                  (local.set $passed (v128.const i64x2 0 0))
                  (local.set $p (i32.add (local.get $p) (i32.const 2)))
                  (loop $key
                    (local.set $v
                      (i8x16.narrow_i16x8_u
                        (i16x8.min_u (v128.load (local.get $p)) (i16x8.splat (i32.const 255)))
                        (i16x8.min_u (v128.load offset=16 (local.get $p)) (i16x8.splat (i32.const 255)))))
                    (local.set $mask
                      (i8x16.bitmask
                        (v128.or
                          (v128.or
                            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
                          (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32))))))
                    (if (i32.eqz (local.get $mask))
                      (then
                        (local.set $passed (v128.or (local.get $passed) (local.get $v)))
                        (local.set $p (i32.add (local.get $p) (i32.const 32)))
                        (br $key)))
                    ;; Units from 0x80 on: in the lanes before the stop, or in a vector skipped.
                    (local.set $high
                      (i32.or (local.get $high)
                        (i32.and (i8x16.bitmask (local.get $v))
                          (i32.xor (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))))
                    (local.set $p
                      (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $mask)) (i32.const 1))))
                    (br_if $invalid (i32.ge_u (local.get $p) (local.get $end)))
                    (local.set $c (i32.load16_u (local.get $p)))
                    (if (i32.eq (local.get $c) (i32.const 92))
                      (then
                        (local.set $key_flags (i32.or (local.get $key_flags) (i32.const 2)))
                        (local.set $p (call $escape (local.get $p)))
                        (br_if $invalid (i32.lt_s (local.get $p) (i32.const 0)))
                        (br $key)))
                    (br_if $invalid (i32.ne (local.get $c) (i32.const 34))))
                  (if (i32.or (local.get $high) (i8x16.bitmask (local.get $passed)))
                    (then (local.set $key_flags (i32.or (local.get $key_flags) (i32.const 8)))))
                  (local.set $p (i32.add (local.get $p) (i32.const 2)))
                  (local.set $key_end (local.get $p))
                  (local.set $state (i32.const 4))
                  ;; Most keys have their colon right after them: taken here, not as a token.
                  (if (i32.eq (i32.load16_u (local.get $p)) (i32.const 58))
                    (then
                      (local.set $state (i32.const 0))
                      (local.set $p (i32.add (local.get $p) (i32.const 2)))))
                  (br $next)))
              ;; Not a key: only `}` right after `{` may follow.
              (br_if $invalid (i32.ne (local.get $state) (i32.const 2)))
              (br_if $invalid (i32.ne (local.get $c) (i32.const 125)))))

          ;; A close: `]` after `[` or an item, `}` after `{` or a member.
          (if (i32.or
                (i32.ge_u (local.get $state) (i32.const 5))
                (i32.and (i32.eq (local.get $state) (i32.const 2)) (i32.eq (local.get $c) (i32.const 125))))
            (then
              (br_if $invalid (i32.eq (local.get $state) (i32.const 6)))
              (local.set $at (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5))))
              (br_if $invalid
                (i32.ne
                  (local.get $c)
                  (select (i32.const 125) (i32.const 93) (i32.eq (i32.load (local.get $at)) (i32.const 1)))))
              (i32.store offset=8 (local.get $at) (i32.add (i32.shr_u (local.get $p) (i32.const 1)) (i32.const 1)))
              ;; `next` held the parent while the container was open.
              (local.set $open (i32.load offset=12 (local.get $at)))
              (i32.store offset=12 (local.get $at) (local.get $count))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (local.set $state (select (i32.const 6) (i32.const 5) (i32.lt_s (local.get $open) (i32.const 0))))
              ;; Most values have their comma right after them: taken here, not as a token.
              (if (i32.and (i32.eq (local.get $state) (i32.const 5)) (i32.eq (i32.load16_u (local.get $p)) (i32.const 44)))
                (then
                  (local.set $state
                    (select (i32.const 3) (i32.const 0)
                      (i32.eq (i32.load (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5)))) (i32.const 1))))
                  (local.set $p (i32.add (local.get $p) (i32.const 2)))))
              (br $next)))
          (if (i32.and (i32.eq (local.get $state) (i32.const 1)) (i32.eq (local.get $c) (i32.const 93)))
            (then
              (local.set $at (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5))))
              (i32.store offset=8 (local.get $at) (i32.add (i32.shr_u (local.get $p) (i32.const 1)) (i32.const 1)))
              (local.set $open (i32.load offset=12 (local.get $at)))
              (i32.store offset=12 (local.get $at) (local.get $count))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (local.set $state (select (i32.const 6) (i32.const 5) (i32.lt_s (local.get $open) (i32.const 0))))
              ;; Most values have their comma right after them: taken here, not as a token.
              (if (i32.and (i32.eq (local.get $state) (i32.const 5)) (i32.eq (i32.load16_u (local.get $p)) (i32.const 44)))
                (then
                  (local.set $state
                    (select (i32.const 3) (i32.const 0)
                      (i32.eq (i32.load (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5)))) (i32.const 1))))
                  (local.set $p (i32.add (local.get $p) (i32.const 2)))))
              (br $next)))

          ;; A value (states 0 and 1): a new record.
          (if (i32.gt_u (i32.add (local.get $rec) (i32.const 32)) (local.get $limit))
            (then
              (if (i32.lt_s
                    (memory.grow (i32.add (i32.shr_u (local.get $limit) (i32.const 17)) (i32.const 1)))
                    (i32.const 0))
                (then (return (i32.const -2))))
              (local.set $limit (i32.shl (memory.size) (i32.const 16)))))
          (local.set $at (local.get $rec))
          (local.set $rec (i32.add (local.get $rec) (i32.const 32)))
          (i32.store offset=4 (local.get $at) (i32.shr_u (local.get $p) (i32.const 1)))
          (i32.store offset=16 (local.get $at) (i32.const 0))
          (local.set $flags (i32.const 0))
          (if (i32.ge_s (local.get $open) (i32.const 0))
            (then
              ;; One more child for the open container; a member takes the pending key.
              (local.set $kind (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5))))
              (i32.store offset=16 (local.get $kind)
                (i32.add (i32.load offset=16 (local.get $kind)) (i32.const 1)))
              (if (i32.eq (i32.load (local.get $kind)) (i32.const 1))
                (then
                  (i32.store offset=20 (local.get $at) (i32.shr_u (local.get $key_start) (i32.const 1)))
                  (i32.store offset=24 (local.get $at) (i32.shr_u (local.get $key_end) (i32.const 1)))
                  (local.set $flags (local.get $key_flags)))
                (else
                  (i32.store offset=20 (local.get $at) (i32.const -1))
                  (i32.store offset=24 (local.get $at) (i32.const -1)))))
            (else
              (i32.store offset=20 (local.get $at) (i32.const -1))
              (i32.store offset=24 (local.get $at) (i32.const -1))))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))

          ;; Containers stay open: `next` holds the parent until the close.
          (if (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 91)))
            (then
              (i32.store (local.get $at) (select (i32.const 1) (i32.const 2) (i32.eq (local.get $c) (i32.const 123))))
              (i32.store offset=12 (local.get $at) (local.get $open))
              (i32.store offset=28 (local.get $at) (local.get $flags))
              (local.set $open (i32.sub (local.get $count) (i32.const 1)))
              (local.set $state (select (i32.const 2) (i32.const 1) (i32.eq (local.get $c) (i32.const 123))))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (br $next)))

          (if (i32.eq (local.get $c) (i32.const 34))
            (then
              (local.set $kind (i32.const 3))
              (local.set $high (i32.const 0))
              (local.set $passed (v128.const i64x2 0 0))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (loop $string
                (local.set $v
                  (i8x16.narrow_i16x8_u
                    (i16x8.min_u (v128.load (local.get $p)) (i16x8.splat (i32.const 255)))
                    (i16x8.min_u (v128.load offset=16 (local.get $p)) (i16x8.splat (i32.const 255)))))
                (local.set $mask
                  (i8x16.bitmask
                    (v128.or
                      (v128.or
                        (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                        (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
                      (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32))))))
                (if (i32.eqz (local.get $mask))
                  (then
                    (local.set $passed (v128.or (local.get $passed) (local.get $v)))
                    (local.set $p (i32.add (local.get $p) (i32.const 32)))
                    (br $string)))
                (local.set $high
                  (i32.or (local.get $high)
                    (i32.and (i8x16.bitmask (local.get $v))
                      (i32.xor (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))))
                (local.set $p
                  (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $mask)) (i32.const 1))))
                (br_if $invalid (i32.ge_u (local.get $p) (local.get $end)))
                (local.set $c (i32.load16_u (local.get $p)))
                (if (i32.eq (local.get $c) (i32.const 92))
                  (then
                    (local.set $flags (i32.or (local.get $flags) (i32.const 1)))
                    (local.set $p (call $escape (local.get $p)))
                    (br_if $invalid (i32.lt_s (local.get $p) (i32.const 0)))
                    (br $string)))
                (br_if $invalid (i32.ne (local.get $c) (i32.const 34))))
              (if (i32.or (local.get $high) (i8x16.bitmask (local.get $passed)))
                (then (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))
              (local.set $p (i32.add (local.get $p) (i32.const 2))))
            (else
              (if (i32.or
                    (i32.eq (local.get $c) (i32.const 45))
                    (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))
                (then
                  (local.set $kind (i32.const 4))
                  (local.set $p (call $number (local.get $p))))
                (else
                  (local.set $kind (i32.const 5))
                  (local.set $p (call $literal (local.get $p)))))
              (br_if $invalid (i32.lt_s (local.get $p) (i32.const 0)))))
          (i32.store (local.get $at) (local.get $kind))
          (i32.store offset=8 (local.get $at) (i32.shr_u (local.get $p) (i32.const 1)))
          (i32.store offset=12 (local.get $at) (local.get $count))
          (i32.store offset=28 (local.get $at) (local.get $flags))
          (local.set $state (select (i32.const 6) (i32.const 5) (i32.lt_s (local.get $open) (i32.const 0))))
          ;; Most values have their comma right after them: taken here, not as a token.
          (if (i32.and (i32.eq (local.get $state) (i32.const 5)) (i32.eq (i32.load16_u (local.get $p)) (i32.const 44)))
            (then
              (local.set $state
                (select (i32.const 3) (i32.const 0)
                  (i32.eq (i32.load (i32.add (local.get $records) (i32.shl (local.get $open) (i32.const 5)))) (i32.const 1))))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))))
          (br $next)))
      ;; The end of the text: valid only after a complete root value.
      (br_if $invalid (i32.ne (local.get $state) (i32.const 6)))
      (return (local.get $count)))
    (i32.const -1))

  ;; The position after the escape whose backslash is at $p, or -1 when it is not one of
  ;; \" \\ \/ \b \f \n \r \t \uXXXX.
  (func $escape (param $p i32) (result i32)
    (local $c i32) (local $k i32)
    (local.set $c (i32.load16_u offset=2 (local.get $p)))
    (if (i32.or
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 92)))
            (i32.or (i32.eq (local.get $c) (i32.const 47)) (i32.eq (local.get $c) (i32.const 98))))
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 102)) (i32.eq (local.get $c) (i32.const 110)))
            (i32.or (i32.eq (local.get $c) (i32.const 114)) (i32.eq (local.get $c) (i32.const 116)))))
      (then (return (i32.add (local.get $p) (i32.const 4)))))
    (if (i32.ne (local.get $c) (i32.const 117)) (then (return (i32.const -1))))
    (local.set $k (i32.const 4))
    (loop $hex
      (local.set $c (i32.load16_u (i32.add (local.get $p) (local.get $k))))
      (if (i32.eqz
            (i32.or
              (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
              (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97)) (i32.const 6))))
        (then (return (i32.const -1))))
      (local.set $k (i32.add (local.get $k) (i32.const 2)))
      (br_if $hex (i32.lt_u (local.get $k) (i32.const 12))))
    (i32.add (local.get $p) (i32.const 12)))

  ;; Writes to $out, as i32 unit indices in ascending order, up to $max places in bytes [$p, $end)
  ;; of the text where one of a set of ASCII words may start, and returns how many it wrote. The
  ;; set is given as a fingerprint of their first five characters (Teddy, as in Hyperscan): at
  ;; $tables, for each of the five positions, a 16-byte table by low nibble then one by high
  ;; nibble, each entry the bits of the word groups whose character at that position has that
  ;; nibble. A place whose five units agree on some group's bit is a candidate: every place
  ;; where a word starts is one, not every candidate is such a place. Units above 0xFF read as
  ;; 0xFF or 0, high nibbles no group has; the units after $end, read as padding, are zero.
  (func (export "find")
    (param $p i32) (param $end i32) (param $tables i32) (param $out i32) (param $max i32)
    (result i32)
    (call $search (i32.const 0) (i32.const 0) (local.get $p) (local.get $end) (local.get $tables)
      (local.get $out) (local.get $max)))

  ;; As `find`, but only inside the tape's string values, between their quotes (a key is not a
  ;; value): over the records in bytes [$rec, $stop), from byte $from of the text on. Words
  ;; are searched for in what a document says, and that is in its string values: the rest of
  ;; the text is keys, whitespace, punctuation, numbers and literals, which for a list of
  ;; records is most of it.
  (func (export "find_in_strings")
    (param $rec i32) (param $stop i32) (param $from i32) (param $tables i32) (param $out i32)
    (param $max i32) (result i32)
    (call $search (local.get $rec) (local.get $stop) (local.get $from) (i32.const 0)
      (local.get $tables) (local.get $out) (local.get $max)))

  ;; The search of both: with records in bytes [$rec, $stop), of their string values' units from
  ;; byte $p on; with none ($rec = $stop), of bytes [$p, $end). Up to $max places written to
  ;; $out; returns how many. One function with the search written inline, not called per string
  ;; value: a call per value cost about a sixth of the search of a list's strings.
  (func $search
    (param $rec i32) (param $stop i32) (param $p i32) (param $end i32) (param $tables i32)
    (param $out i32) (param $max i32) (result i32)
    (local $n i32) (local $strings i32) (local $from i32) (local $mask i32) (local $at i32)
    (local $a v128) (local $b v128) (local $v v128) (local $m v128) (local $low v128)
    (local.set $strings (i32.lt_u (local.get $rec) (local.get $stop)))
    (local.set $from (local.get $p))
    (block $all_done
      (loop $ranges
        (if (local.get $strings)
          (then
            ;; The next string value's units, from $from on.
            (block $found
              (loop $records
                (br_if $all_done (i32.ge_u (local.get $rec) (local.get $stop)))
                (if (i32.eq (i32.load (local.get $rec)) (i32.const 3))
                  (then
                    (local.set $p
                      (i32.shl (i32.add (i32.load offset=4 (local.get $rec)) (i32.const 1)) (i32.const 1)))
                    (if (i32.lt_u (local.get $p) (local.get $from)) (then (local.set $p (local.get $from))))
                    (local.set $end
                      (i32.shl (i32.sub (i32.load offset=8 (local.get $rec)) (i32.const 1)) (i32.const 1)))
                    (local.set $rec (i32.add (local.get $rec) (i32.const 32)))
                    (br_if $found (i32.lt_u (local.get $p) (local.get $end)))
                    (br $records)))
                (local.set $rec (i32.add (local.get $rec) (i32.const 32)))
                (br $records))))
          (else
            ;; The one range, once.
            (br_if $all_done (i32.lt_s (local.get $from) (i32.const 0)))
            (local.set $from (i32.const -1))))
        ;; Teddy over bytes [$p, $end), 16 units to a block. A unit past 0xFF narrows to 0xFF,
        ;; or from 0x8000 on to 0 (the narrowing is signed): no group has either high nibble
        ;; where its word has a character, so neither matches a word (no clamp needed).
        (local.set $low (i8x16.splat (i32.const 15)))
        (local.set $a
          (i8x16.narrow_i16x8_u
            (v128.load (local.get $p))
            (v128.load offset=16 (local.get $p))))
        (block $range_done
          (loop $blocks
            (br_if $range_done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $b
              (i8x16.narrow_i16x8_u
                (v128.load offset=32 (local.get $p))
                (v128.load offset=48 (local.get $p))))
            ;; Position 0: the units at each lane.
            (local.set $m
              (v128.and
                (i8x16.swizzle (v128.load (local.get $tables)) (v128.and (local.get $a) (local.get $low)))
                (i8x16.swizzle (v128.load offset=16 (local.get $tables)) (i8x16.shr_u (local.get $a) (i32.const 4)))))
            ;; Position 1: the units one lane on.
            (local.set $v
              (i8x16.shuffle 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 (local.get $a) (local.get $b)))
            (local.set $m
              (v128.and (local.get $m)
                (v128.and
                  (i8x16.swizzle (v128.load offset=32 (local.get $tables)) (v128.and (local.get $v) (local.get $low)))
                  (i8x16.swizzle (v128.load offset=48 (local.get $tables)) (i8x16.shr_u (local.get $v) (i32.const 4))))))
            ;; Position 2: two lanes on.
            (local.set $v
              (i8x16.shuffle 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 (local.get $a) (local.get $b)))
            (local.set $m
              (v128.and (local.get $m)
                (v128.and
                  (i8x16.swizzle (v128.load offset=64 (local.get $tables)) (v128.and (local.get $v) (local.get $low)))
                  (i8x16.swizzle (v128.load offset=80 (local.get $tables)) (i8x16.shr_u (local.get $v) (i32.const 4))))))
            ;; Most blocks have no candidate by now (three in four on the fixtures): the last two
            ;; positions only for those that do.
            (if (v128.any_true (local.get $m))
              (then
                ;; Positions 3 and 4: three and four lanes on.
                (local.set $v
                  (i8x16.shuffle 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 (local.get $a) (local.get $b)))
                (local.set $m
                  (v128.and (local.get $m)
                    (v128.and
                      (i8x16.swizzle (v128.load offset=96 (local.get $tables)) (v128.and (local.get $v) (local.get $low)))
                      (i8x16.swizzle (v128.load offset=112 (local.get $tables)) (i8x16.shr_u (local.get $v) (i32.const 4))))))
                (local.set $v
                  (i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 (local.get $a) (local.get $b)))
                (local.set $m
                  (v128.and (local.get $m)
                    (v128.and
                      (i8x16.swizzle (v128.load offset=128 (local.get $tables)) (v128.and (local.get $v) (local.get $low)))
                      (i8x16.swizzle (v128.load offset=144 (local.get $tables)) (i8x16.shr_u (local.get $v) (i32.const 4))))))
                (local.set $mask
                  (i8x16.bitmask (v128.not (i8x16.eq (local.get $m) (v128.const i64x2 0 0)))))
                (block $lanes_done
                  (loop $lanes
                    (br_if $lanes_done (i32.eqz (local.get $mask)))
                    (local.set $at
                      (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $mask)) (i32.const 1))))
                    (br_if $range_done (i32.ge_u (local.get $at) (local.get $end)))
                    (i32.store
                      (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2)))
                      (i32.shr_u (local.get $at) (i32.const 1)))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))
                    (br_if $all_done (i32.ge_u (local.get $n) (local.get $max)))
                    (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
                    (br $lanes)))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $a (local.get $b))
            (br $blocks)))
        (br_if $all_done (i32.ge_u (local.get $n) (local.get $max)))
        (br $ranges)))
    (local.get $n))

  ;; Of the $n unit offsets at $out (places `find` gave), keeps in order, in place, those where
  ;; one of $count words (at most 32) starts, A-Z read as a-z, and writes beside each at $masks a
  ;; bit per word that starts there (bit k for the k-th). The words are described from $words
  ;; on: per word its length in units, with the top bit set for a word looked for only where no
  ;; ASCII letter or digit comes before it (one only a whole token matches: inside a run of
  ;; `x`, a long `xx…x0` is not compared at every place), and the byte offset from $words of
  ;; its units (i16, lower-case printable ASCII). Returns how many places it kept. No word
  ;; matches past the text: the unit after it is padding, 0, which no word has. The check `find`
  ;; leaves to JavaScript (a unit at a time there, most of a question's search on a list).
  (func (export "verify")
    (param $out i32) (param $n i32) (param $words i32) (param $count i32) (param $masks i32)
    (result i32)
    (local $i i32) (local $kept i32) (local $at i32) (local $mask i32) (local $k i32)
    (local $w i32) (local $length i32) (local $units i32) (local $j i32) (local $c i32)
    (local $inside i32)
    (block $done
      (loop $candidate
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at
          (i32.shl (i32.load (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 1)))
        (local.set $mask (i32.const 0))
        (local.set $k (i32.const 0))
        ;; Whether an ASCII letter or digit comes right before the place.
        (local.set $inside (i32.const 0))
        (if (local.get $at)
          (then
            (local.set $c (i32.load16_u (i32.sub (local.get $at) (i32.const 2))))
            (local.set $inside
              (i32.or
                (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10))
                (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 26))))))
        (block $words_done
          (loop $word
            (br_if $words_done (i32.ge_u (local.get $k) (local.get $count)))
            (local.set $w (i32.add (local.get $words) (i32.shl (local.get $k) (i32.const 3))))
            (local.set $length (i32.load (local.get $w)))
            (local.set $units (i32.add (local.get $words) (i32.load offset=4 (local.get $w))))
            (local.set $j (i32.const 0))
            (block $differ
              (br_if $differ (i32.and (local.get $inside) (i32.lt_s (local.get $length) (i32.const 0))))
              (local.set $length (i32.and (local.get $length) (i32.const 0x7fffffff)))
              (loop $unit
                (if (i32.ge_u (local.get $j) (local.get $length))
                  (then
                    (local.set $mask (i32.or (local.get $mask) (i32.shl (i32.const 1) (local.get $k))))
                    (br $differ)))
                (local.set $c (i32.load16_u (i32.add (local.get $at) (i32.shl (local.get $j) (i32.const 1)))))
                (if (i32.lt_u (i32.sub (local.get $c) (i32.const 0x41)) (i32.const 26))
                  (then (local.set $c (i32.or (local.get $c) (i32.const 0x20)))))
                (br_if $differ
                  (i32.ne (local.get $c)
                    (i32.load16_u (i32.add (local.get $units) (i32.shl (local.get $j) (i32.const 1))))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $unit)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $word)))
        (if (local.get $mask)
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $kept) (i32.const 2)))
              (i32.shr_u (local.get $at) (i32.const 1)))
            (i32.store (i32.add (local.get $masks) (i32.shl (local.get $kept) (i32.const 2)))
              (local.get $mask))
            (local.set $kept (i32.add (local.get $kept) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $candidate)))
    (local.get $kept))

  ;; The UTF-8 bytes beyond one per unit of the units in bytes [$p, $end): one more for each
  ;; unit from 0x80 on, one more again for each from 0x800 on, two fewer for each high surrogate
  ;; followed, before $end, by a low one (a pair is 4 bytes, a lone surrogate 3, as TextEncoder
  ;; writes U+FFFD). Eight units at a time while the unit after them is in range too (it is read
  ;; to find pairs across lanes), then one at a time. Per vector, lanes hold 0 to 2, the negated
  ;; count summed in 32-bit lanes so that no string is too long for them.
  (func $extra_utf8 (param $p i32) (param $end i32) (result i32)
    (local $v v128) (local $w v128) (local $t v128) (local $sum v128) (local $n i32) (local $c i32)
    (block $vectors_done
      (loop $vectors
        (br_if $vectors_done (i32.gt_u (i32.add (local.get $p) (i32.const 18)) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $w (v128.load offset=2 (local.get $p)))
        ;; A pair: a high surrogate here and a low one in the next unit.
        (local.set $t
          (v128.and
            (i16x8.eq (v128.and (local.get $v) (i16x8.splat (i32.const 0xfc00))) (i16x8.splat (i32.const 0xd800)))
            (i16x8.eq (v128.and (local.get $w) (i16x8.splat (i32.const 0xfc00))) (i16x8.splat (i32.const 0xdc00)))))
        ;; Compare results are -1: this is minus the lanes' extra bytes.
        (local.set $t
          (i16x8.sub
            (i16x8.add
              (i16x8.gt_u (local.get $v) (i16x8.splat (i32.const 0x7f)))
              (i16x8.gt_u (local.get $v) (i16x8.splat (i32.const 0x7ff))))
            (i16x8.add (local.get $t) (local.get $t))))
        (local.set $sum (i32x4.sub (local.get $sum) (i32x4.extadd_pairwise_i16x8_s (local.get $t))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors)))
    (local.set $n
      (i32.add
        (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
        (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
    (block $units_done
      (loop $units
        (br_if $units_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load16_u (local.get $p)))
        (local.set $n
          (i32.add (local.get $n)
            (i32.add (i32.gt_u (local.get $c) (i32.const 0x7f)) (i32.gt_u (local.get $c) (i32.const 0x7ff)))))
        (if (i32.and
              (i32.eq (i32.and (local.get $c) (i32.const 0xfc00)) (i32.const 0xd800))
              (i32.and
                (i32.lt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end))
                (i32.eq (i32.and (i32.load16_u offset=2 (local.get $p)) (i32.const 0xfc00)) (i32.const 0xdc00))))
          (then (local.set $n (i32.sub (local.get $n) (i32.const 2)))))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $units)))
    (local.get $n))

  ;; Memory up to at least $need, given the current end of memory $limit: the new end, or -1
  ;; when memory cannot grow. Grows by half again at least, as `build` does for records.
  (func $reserve (param $need i32) (param $limit i32) (result i32)
    (local $pages i32)
    (if (i32.le_u (local.get $need) (local.get $limit)) (then (return (local.get $limit))))
    (local.set $pages
      (i32.shr_u (i32.add (i32.sub (local.get $need) (local.get $limit)) (i32.const 0xffff)) (i32.const 16)))
    (if (i32.lt_u (local.get $pages) (i32.add (i32.shr_u (local.get $limit) (i32.const 17)) (i32.const 1)))
      (then (local.set $pages (i32.add (i32.shr_u (local.get $limit) (i32.const 17)) (i32.const 1)))))
    (if (i32.lt_s (memory.grow (local.get $pages)) (i32.const 0)) (then (return (i32.const -1))))
    (i32.shl (memory.size) (i32.const 16)))

  ;; Reads the $total records at $records (written by `build`) into the columns of an inventory
  ;; of the first $count of them (json-tape.ts, `JsonTapeReader.inventory`), at $out: the root's
  ;; minified UTF-8 bytes and the text's UTF-8 bytes beyond one per unit (two i32), 8 bytes of
  ;; padding, then twelve i32 columns of $count entries (parent, next capped at $count, key start,
  ;; key bytes, key end, start, end, value bytes, unit bytes, child index, key hash, value hash:
  ;; see the hash below, 0 where there is no key or the value is a container) and one byte column
  ;; (the kind, a literal given as a number). Records past $count are not written but are sized
  ;; into their ancestors. The open containers' frames are kept from past the kinds on, memory
  ;; growing as they need. Returns 0, or -2 when memory could not grow.
  (func (export "inventory")
    (param $records i32) (param $total i32) (param $count i32) (param $out i32) (result i32)
    (local $limit i32) (local $sp i32) (local $r i32) (local $at i32) (local $col i32)
    (local $cells i32) (local $kinds i32) (local $kind i32) (local $start i32) (local $end i32)
    (local $next i32) (local $key_start i32) (local $key_end i32) (local $flags i32)
    (local $key i32) (local $extra i32) (local $extra_total i32) (local $size i32) (local $unit i32)
    (local $top i32) (local $top_next i32) (local $top_key i32) (local $units i32) (local $children i32)
    ;; $cells: bytes per column; the column of a record is at $col + k * $cells.
    (local $hashing i32) (local $hp i32) (local $hn i32) (local $hm i32)
    (local $htail i32) (local $hh i32) (local $hv v128) (local $hfirst v128) (local $hsecond v128)
    (local $hashing2 i32) (local $hp2 i32) (local $hn2 i32) (local $hm2 i32) (local $htail2 i32) (local $hh2 i32)
    (local $hv2 v128) (local $hfirst2 v128) (local $hsecond2 v128)
    (local.set $cells (i32.shl (local.get $count) (i32.const 2)))
    (local.set $col (i32.add (local.get $out) (i32.const 16)))
    (local.set $kinds (i32.add (local.get $col) (i32.mul (local.get $cells) (i32.const 12))))
    (local.set $sp (i32.and (i32.add (i32.add (local.get $kinds) (local.get $count)) (i32.const 15)) (i32.const -16)))
    (local.set $limit
      (call $reserve (i32.add (local.get $sp) (i32.const 20)) (i32.shl (memory.size) (i32.const 16))))
    (if (i32.lt_s (local.get $limit) (i32.const 0)) (then (return (i32.const -2))))
    ;; The frame below the root: no record, never closed; its units end as the root's bytes.
    (local.set $top (i32.const -1))
    (local.set $top_next (i32.const 0x7fffffff))
    (local.set $at (local.get $records))
    (block $done
      (loop $record
        ;; Close the containers whose subtree ended before this record.
        (block $closed
          (loop $close
            (br_if $closed (i32.gt_s (local.get $top_next) (local.get $r)))
            (local.set $size
              (i32.add (i32.add (i32.const 2) (local.get $units))
                (select (i32.sub (local.get $children) (i32.const 1)) (i32.const 0)
                  (i32.gt_s (local.get $children) (i32.const 0)))))
            (local.set $unit
              (select (i32.add (i32.add (local.get $size) (local.get $top_key)) (i32.const 1)) (local.get $size)
                (i32.gt_s (local.get $top_key) (i32.const 0))))
            (if (i32.lt_u (local.get $top) (local.get $count))
              (then
                (local.set $next (i32.add (local.get $col) (i32.shl (local.get $top) (i32.const 2))))
                (i32.store (i32.add (local.get $next) (i32.mul (local.get $cells) (i32.const 7))) (local.get $size))
                (i32.store (i32.add (local.get $next) (i32.shl (local.get $cells) (i32.const 3))) (local.get $unit))))
            (local.set $sp (i32.sub (local.get $sp) (i32.const 20)))
            (local.set $top (i32.load (local.get $sp)))
            (local.set $top_next (i32.load offset=4 (local.get $sp)))
            (local.set $top_key (i32.load offset=8 (local.get $sp)))
            (local.set $units (i32.add (i32.load offset=12 (local.get $sp)) (local.get $unit)))
            (local.set $children (i32.load offset=16 (local.get $sp)))
            (br $close)))
        (br_if $done (i32.ge_u (local.get $r) (local.get $total)))
        (local.set $kind (i32.load (local.get $at)))
        (local.set $start (i32.load offset=4 (local.get $at)))
        (local.set $end (i32.load offset=8 (local.get $at)))
        (local.set $next (i32.load offset=12 (local.get $at)))
        (local.set $key_start (i32.load offset=20 (local.get $at)))
        (local.set $key_end (i32.load offset=24 (local.get $at)))
        (local.set $flags (i32.load offset=28 (local.get $at)))
        (local.set $key (i32.const 0))
        (if (i32.ge_s (local.get $key_start) (i32.const 0))
          (then
            (local.set $key (i32.sub (local.get $key_end) (local.get $key_start)))
            (if (i32.and (local.get $flags) (i32.const 8))
              (then
                (local.set $extra
                  (call $extra_utf8
                    (i32.shl (local.get $key_start) (i32.const 1))
                    (i32.shl (local.get $key_end) (i32.const 1))))
                (local.set $key (i32.add (local.get $key) (local.get $extra)))
                (local.set $extra_total (i32.add (local.get $extra_total) (local.get $extra)))))))
        (if (i32.lt_u (local.get $r) (local.get $count))
          (then
            (local.set $unit (i32.add (local.get $col) (i32.shl (local.get $r) (i32.const 2))))
            (i32.store (local.get $unit) (local.get $top))
            (i32.store (i32.add (local.get $unit) (local.get $cells))
              (select (local.get $next) (local.get $count) (i32.lt_s (local.get $next) (local.get $count))))
            (local.set $unit (i32.add (local.get $unit) (i32.shl (local.get $cells) (i32.const 1))))
            (i32.store (local.get $unit) (local.get $key_start))
            (local.set $unit (i32.add (local.get $unit) (local.get $cells)))
            (i32.store (local.get $unit) (local.get $key))
            (local.set $unit (i32.add (local.get $unit) (local.get $cells)))
            (i32.store (local.get $unit) (local.get $key_end))
            (local.set $unit (i32.add (local.get $unit) (local.get $cells)))
            (i32.store (local.get $unit) (local.get $start))
            (local.set $unit (i32.add (local.get $unit) (local.get $cells)))
            (i32.store (local.get $unit) (local.get $end))
            (i32.store (i32.add (local.get $unit) (i32.mul (local.get $cells) (i32.const 3))) (local.get $children))
            ;; The hashes of the key and of a scalar's text (a string's between its quotes), 0 where
            ;; there is none, each written out inline (a call per key and per value cost about a
            ;; sixth of this pass; two turns of one loop, a tenth more than this, as the second
            ;; hash waited on the first though the two are independent). The hash of the $hn
            ;; units from byte $hp is text-hash.ts's `textHash`: eight units to a vector, the lanes
            ;; past the text masked off, two sums of the units times their own 16-bit multipliers
            ;; (signed, pairs of products added in 32-bit lanes), mixed with the length. Of a text
            ;; over 48 units, the first 32 and the last 16 (the last two vectors move to the text's
            ;; end). Reads up to 14 bytes past the text: the padding or the text after it, masked.
            (local.set $unit (i32.add (local.get $unit) (i32.shl (local.get $cells) (i32.const 2))))
            (local.set $hashing (i32.ge_s (local.get $key_start) (i32.const 0)))
            (local.set $hp (i32.add (i32.shl (local.get $key_start) (i32.const 1)) (i32.const 2)))
            (local.set $hn (i32.sub (i32.sub (local.get $key_end) (local.get $key_start)) (i32.const 2)))
            (local.set $hh (i32.const 0))
            (if (local.get $hashing)
              (then
                (local.set $hfirst (v128.const i64x2 0 0))
                (local.set $hsecond (v128.const i64x2 0 0))
                (local.set $hm (local.get $hn))
                (local.set $htail (local.get $hp))
                (if (i32.gt_u (local.get $hn) (i32.const 48))
                  (then
                    (local.set $hm (i32.const 48))
                    (local.set $htail
                      (i32.add (local.get $hp) (i32.shl (i32.sub (local.get $hn) (i32.const 48)) (i32.const 1))))))
                (block $summed
                  (br_if $summed (i32.eqz (local.get $hm)))
                  (local.set $hv
                    (v128.and (v128.load (local.get $hp))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm) (i32.const 0))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst
                    (i32x4.add (local.get $hfirst) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 12047 -7181 32205 7615 -32341 -29539 7055 29413))))
                  (local.set $hsecond
                    (i32x4.add (local.get $hsecond) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 -27957 15575 6933 19465 18553 -9407 30909 -10191))))
                  (br_if $summed (i32.le_u (local.get $hm) (i32.const 8)))
                  (local.set $hv
                    (v128.and (v128.load offset=16 (local.get $hp))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm) (i32.const 8))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst
                    (i32x4.add (local.get $hfirst) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 -8875 -29457 15281 29595 28113 -16207 3061 20923))))
                  (local.set $hsecond
                    (i32x4.add (local.get $hsecond) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 26059 8011 -28295 561 10921 -19413 1257 -7507))))
                  (br_if $summed (i32.le_u (local.get $hm) (i32.const 16)))
                  (local.set $hv
                    (v128.and (v128.load offset=32 (local.get $hp))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm) (i32.const 16))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst
                    (i32x4.add (local.get $hfirst) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 1173 26753 14389 14007 -151 25665 31555 -28059))))
                  (local.set $hsecond
                    (i32x4.add (local.get $hsecond) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 31223 267 -23469 -12565 -9927 -20083 -8879 23989))))
                  (br_if $summed (i32.le_u (local.get $hm) (i32.const 24)))
                  (local.set $hv
                    (v128.and (v128.load offset=48 (local.get $hp))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm) (i32.const 24))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst
                    (i32x4.add (local.get $hfirst) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 -27499 -25733 -18069 24963 -8767 -3519 -23985 -7195))))
                  (local.set $hsecond
                    (i32x4.add (local.get $hsecond) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 13127 -22947 22493 6985 -7151 15917 -25041 -18437))))
                  (br_if $summed (i32.le_u (local.get $hm) (i32.const 32)))
                  (local.set $hv
                    (v128.and (v128.load offset=64 (local.get $htail))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm) (i32.const 32))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst
                    (i32x4.add (local.get $hfirst) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 -27845 9011 11801 -11499 -26925 -23759 32167 10823))))
                  (local.set $hsecond
                    (i32x4.add (local.get $hsecond) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 -23469 7793 21215 13163 22227 -1961 20457 -25705))))
                  (br_if $summed (i32.le_u (local.get $hm) (i32.const 40)))
                  (local.set $hv
                    (v128.and (v128.load offset=80 (local.get $htail))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm) (i32.const 40))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst
                    (i32x4.add (local.get $hfirst) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 3467 -6649 -26355 -31041 31777 14403 17021 7841))))
                  (local.set $hsecond
                    (i32x4.add (local.get $hsecond) (i32x4.dot_i16x8_s (local.get $hv) (v128.const i16x8 -25281 -22803 -14905 6105 25295 -32129 -17961 6025)))))
                ;; Both sums' lanes added, as `first ^ fold(second) * 0xcc9e2d51 ^ length * 0x9e3779b1`.
                (local.set $hfirst
                  (i32x4.add (local.get $hfirst) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hfirst) (local.get $hfirst))))
                (local.set $hsecond
                  (i32x4.add (local.get $hsecond) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hsecond) (local.get $hsecond))))
                ;; The second sum folded first (see text-hash.ts: a text and its negation).
                (local.set $hh
                  (i32.add (i32x4.extract_lane 0 (local.get $hsecond)) (i32x4.extract_lane 1 (local.get $hsecond))))
                (local.set $hh
                  (i32.xor
                    (i32.xor
                      (i32.add (i32x4.extract_lane 0 (local.get $hfirst)) (i32x4.extract_lane 1 (local.get $hfirst)))
                      (i32.mul
                        (i32.xor (local.get $hh) (i32.shr_u (local.get $hh) (i32.const 16)))
                        (i32.const 0xcc9e2d51)))
                    (i32.mul (local.get $hn) (i32.const 0x9e3779b1))))
                (local.set $hh (i32.xor (local.get $hh) (i32.shr_u (local.get $hh) (i32.const 16))))
                (local.set $hh (i32.mul (local.get $hh) (i32.const 0x85ebca6b)))
                (local.set $hh (i32.xor (local.get $hh) (i32.shr_u (local.get $hh) (i32.const 13))))
                (local.set $hh (i32.mul (local.get $hh) (i32.const 0xc2b2ae35)))
                (local.set $hh (i32.xor (local.get $hh) (i32.shr_u (local.get $hh) (i32.const 16))))))
            (i32.store (local.get $unit) (local.get $hh))
            ;; The value's, of a scalar only ($hn2 units from byte $hp2).
            (local.set $hashing2 (i32.gt_u (local.get $kind) (i32.const 2)))
            (local.set $hp2
              (i32.add (i32.shl (local.get $start) (i32.const 1))
                (select (i32.const 2) (i32.const 0) (i32.eq (local.get $kind) (i32.const 3)))))
            (local.set $hn2
              (i32.sub (i32.sub (local.get $end) (local.get $start))
                (select (i32.const 2) (i32.const 0) (i32.eq (local.get $kind) (i32.const 3)))))
            (local.set $hh2 (i32.const 0))
            (if (local.get $hashing2)
              (then
                (local.set $hfirst2 (v128.const i64x2 0 0))
                (local.set $hsecond2 (v128.const i64x2 0 0))
                (local.set $hm2 (local.get $hn2))
                (local.set $htail2 (local.get $hp2))
                (if (i32.gt_u (local.get $hn2) (i32.const 48))
                  (then
                    (local.set $hm2 (i32.const 48))
                    (local.set $htail2
                      (i32.add (local.get $hp2) (i32.shl (i32.sub (local.get $hn2) (i32.const 48)) (i32.const 1))))))
                (block $summed
                  (br_if $summed (i32.eqz (local.get $hm2)))
                  (local.set $hv2
                    (v128.and (v128.load (local.get $hp2))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm2) (i32.const 0))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst2
                    (i32x4.add (local.get $hfirst2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 12047 -7181 32205 7615 -32341 -29539 7055 29413))))
                  (local.set $hsecond2
                    (i32x4.add (local.get $hsecond2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 -27957 15575 6933 19465 18553 -9407 30909 -10191))))
                  (br_if $summed (i32.le_u (local.get $hm2) (i32.const 8)))
                  (local.set $hv2
                    (v128.and (v128.load offset=16 (local.get $hp2))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm2) (i32.const 8))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst2
                    (i32x4.add (local.get $hfirst2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 -8875 -29457 15281 29595 28113 -16207 3061 20923))))
                  (local.set $hsecond2
                    (i32x4.add (local.get $hsecond2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 26059 8011 -28295 561 10921 -19413 1257 -7507))))
                  (br_if $summed (i32.le_u (local.get $hm2) (i32.const 16)))
                  (local.set $hv2
                    (v128.and (v128.load offset=32 (local.get $hp2))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm2) (i32.const 16))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst2
                    (i32x4.add (local.get $hfirst2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 1173 26753 14389 14007 -151 25665 31555 -28059))))
                  (local.set $hsecond2
                    (i32x4.add (local.get $hsecond2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 31223 267 -23469 -12565 -9927 -20083 -8879 23989))))
                  (br_if $summed (i32.le_u (local.get $hm2) (i32.const 24)))
                  (local.set $hv2
                    (v128.and (v128.load offset=48 (local.get $hp2))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm2) (i32.const 24))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst2
                    (i32x4.add (local.get $hfirst2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 -27499 -25733 -18069 24963 -8767 -3519 -23985 -7195))))
                  (local.set $hsecond2
                    (i32x4.add (local.get $hsecond2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 13127 -22947 22493 6985 -7151 15917 -25041 -18437))))
                  (br_if $summed (i32.le_u (local.get $hm2) (i32.const 32)))
                  (local.set $hv2
                    (v128.and (v128.load offset=64 (local.get $htail2))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm2) (i32.const 32))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst2
                    (i32x4.add (local.get $hfirst2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 -27845 9011 11801 -11499 -26925 -23759 32167 10823))))
                  (local.set $hsecond2
                    (i32x4.add (local.get $hsecond2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 -23469 7793 21215 13163 22227 -1961 20457 -25705))))
                  (br_if $summed (i32.le_u (local.get $hm2) (i32.const 40)))
                  (local.set $hv2
                    (v128.and (v128.load offset=80 (local.get $htail2))
                      (i16x8.gt_s (i16x8.splat (i32.sub (local.get $hm2) (i32.const 40))) (v128.const i16x8 0 1 2 3 4 5 6 7))))
                  (local.set $hfirst2
                    (i32x4.add (local.get $hfirst2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 3467 -6649 -26355 -31041 31777 14403 17021 7841))))
                  (local.set $hsecond2
                    (i32x4.add (local.get $hsecond2) (i32x4.dot_i16x8_s (local.get $hv2) (v128.const i16x8 -25281 -22803 -14905 6105 25295 -32129 -17961 6025)))))
                ;; Both sums' lanes added, as `first ^ fold(second) * 0xcc9e2d51 ^ length * 0x9e3779b1`.
                (local.set $hfirst2
                  (i32x4.add (local.get $hfirst2) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hfirst2) (local.get $hfirst2))))
                (local.set $hsecond2
                  (i32x4.add (local.get $hsecond2) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hsecond2) (local.get $hsecond2))))
                ;; The second sum folded first (see text-hash.ts: a text and its negation).
                (local.set $hh2
                  (i32.add (i32x4.extract_lane 0 (local.get $hsecond2)) (i32x4.extract_lane 1 (local.get $hsecond2))))
                (local.set $hh2
                  (i32.xor
                    (i32.xor
                      (i32.add (i32x4.extract_lane 0 (local.get $hfirst2)) (i32x4.extract_lane 1 (local.get $hfirst2)))
                      (i32.mul
                        (i32.xor (local.get $hh2) (i32.shr_u (local.get $hh2) (i32.const 16)))
                        (i32.const 0xcc9e2d51)))
                    (i32.mul (local.get $hn2) (i32.const 0x9e3779b1))))
                (local.set $hh2 (i32.xor (local.get $hh2) (i32.shr_u (local.get $hh2) (i32.const 16))))
                (local.set $hh2 (i32.mul (local.get $hh2) (i32.const 0x85ebca6b)))
                (local.set $hh2 (i32.xor (local.get $hh2) (i32.shr_u (local.get $hh2) (i32.const 13))))
                (local.set $hh2 (i32.mul (local.get $hh2) (i32.const 0xc2b2ae35)))
                (local.set $hh2 (i32.xor (local.get $hh2) (i32.shr_u (local.get $hh2) (i32.const 16))))))
            (i32.store (i32.add (local.get $unit) (local.get $cells)) (local.get $hh2))
            (i32.store8 (i32.add (local.get $kinds) (local.get $r))
              (select (i32.const 4) (local.get $kind) (i32.gt_u (local.get $kind) (i32.const 4))))))
        (local.set $children (i32.add (local.get $children) (i32.const 1)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (if (i32.le_u (local.get $kind) (i32.const 2))
          (then
            ;; A container: its parent's frame goes on the stack.
            (if (i32.gt_u (i32.add (local.get $sp) (i32.const 20)) (local.get $limit))
              (then
                (local.set $limit (call $reserve (i32.add (local.get $sp) (i32.const 20)) (local.get $limit)))
                (if (i32.lt_s (local.get $limit) (i32.const 0)) (then (return (i32.const -2))))))
            (i32.store (local.get $sp) (local.get $top))
            (i32.store offset=4 (local.get $sp) (local.get $top_next))
            (i32.store offset=8 (local.get $sp) (local.get $top_key))
            (i32.store offset=12 (local.get $sp) (local.get $units))
            (i32.store offset=16 (local.get $sp) (local.get $children))
            (local.set $sp (i32.add (local.get $sp) (i32.const 20)))
            (local.set $top (i32.sub (local.get $r) (i32.const 1)))
            (local.set $top_next (local.get $next))
            (local.set $top_key (local.get $key))
            (local.set $units (i32.const 0))
            (local.set $children (i32.const 0))
            (br $record)))
        (local.set $size (i32.sub (local.get $end) (local.get $start)))
        (if (i32.and (local.get $flags) (i32.const 4))
          (then
            (local.set $extra
              (call $extra_utf8 (i32.shl (local.get $start) (i32.const 1)) (i32.shl (local.get $end) (i32.const 1))))
            (local.set $size (i32.add (local.get $size) (local.get $extra)))
            (local.set $extra_total (i32.add (local.get $extra_total) (local.get $extra)))))
        (local.set $unit
          (select (i32.add (i32.add (local.get $size) (local.get $key)) (i32.const 1)) (local.get $size)
            (i32.gt_s (local.get $key) (i32.const 0))))
        (if (i32.lt_u (i32.sub (local.get $r) (i32.const 1)) (local.get $count))
          (then
            (local.set $next (i32.add (local.get $col) (i32.shl (i32.sub (local.get $r) (i32.const 1)) (i32.const 2))))
            (i32.store (i32.add (local.get $next) (i32.mul (local.get $cells) (i32.const 7))) (local.get $size))
            (i32.store (i32.add (local.get $next) (i32.shl (local.get $cells) (i32.const 3))) (local.get $unit))))
        (local.set $units (i32.add (local.get $units) (local.get $unit)))
        (br $record)))
    (i32.store (local.get $out) (local.get $units))
    (i32.store offset=4 (local.get $out) (local.get $extra_total))
    (i32.const 0))

  ;; How the children of container $u step from it, as json-signatures.ts's `childStepOf` tells
  ;; (the `STEP_*` there): 3, the positions of a tuple (an array of 1 to 16 items, all scalars);
  ;; 2, any item (any other array, or a map: an object of at least 8 members, all non-empty
  ;; objects); 1, a key (any other object). $next and $kinds are the inventory's columns.
  (func $child_step (param $u i32) (param $next i32) (param $kinds i32) (result i32)
    (local $c i32) (local $end i32) (local $after i32) (local $items i32)
    (local.set $end (i32.load (i32.add (local.get $next) (i32.shl (local.get $u) (i32.const 2)))))
    (local.set $c (i32.add (local.get $u) (i32.const 1)))
    (if (i32.eq (i32.load8_u (i32.add (local.get $kinds) (local.get $u))) (i32.const 2))
      (then
        (block $items_done
          (loop $item
            (br_if $items_done (i32.ge_s (local.get $c) (local.get $end)))
            (local.set $items (i32.add (local.get $items) (i32.const 1)))
            ;; Kinds 1 and 2 are containers, 3 and 4 scalars.
            (if (i32.or
                  (i32.gt_s (local.get $items) (i32.const 16))
                  (i32.lt_u (i32.load8_u (i32.add (local.get $kinds) (local.get $c))) (i32.const 3)))
              (then (return (i32.const 2))))
            (local.set $c (i32.load (i32.add (local.get $next) (i32.shl (local.get $c) (i32.const 2)))))
            (br $item)))
        (return (select (i32.const 3) (i32.const 2) (i32.gt_s (local.get $items) (i32.const 0))))))
    (block $members_done
      (loop $member
        (br_if $members_done (i32.ge_s (local.get $c) (local.get $end)))
        (local.set $after (i32.load (i32.add (local.get $next) (i32.shl (local.get $c) (i32.const 2)))))
        (if (i32.or
              (i32.ne (i32.load8_u (i32.add (local.get $kinds) (local.get $c))) (i32.const 1))
              (i32.eq (local.get $after) (i32.add (local.get $c) (i32.const 1))))
          (then (return (i32.const 1))))
        (local.set $items (i32.add (local.get $items) (i32.const 1)))
        (local.set $c (local.get $after))
        (br $member)))
    (select (i32.const 2) (i32.const 1) (i32.ge_s (local.get $items) (i32.const 8))))

  ;; A new signature's 64-byte record at $rec: parent, step, first node, nodes, objects, depth,
  ;; hash, last object, last array, items' signature + 1, last node, biggest node, leaves, then
  ;; the bytes summed as an f64 at 56. Counts start at 0, the last object and array at -1.
  (func $new_signature
    (param $rec i32) (param $parent i32) (param $step i32) (param $u i32) (param $depth i32) (param $h i32)
    (v128.store offset=0 (local.get $rec) (v128.const i32x4 0 0 0 0))
    (v128.store offset=16 (local.get $rec) (v128.const i32x4 0 0 0 0))
    (v128.store offset=32 (local.get $rec) (v128.const i32x4 0 0 0 0))
    (v128.store offset=48 (local.get $rec) (v128.const i32x4 0 0 0 0))
    (i32.store offset=0 (local.get $rec) (local.get $parent))
    (i32.store offset=4 (local.get $rec) (local.get $step))
    (i32.store offset=8 (local.get $rec) (local.get $u))
    (i32.store offset=20 (local.get $rec) (local.get $depth))
    (i32.store offset=24 (local.get $rec) (local.get $h))
    (i32.store offset=28 (local.get $rec) (i32.const -1))
    (i32.store offset=32 (local.get $rec) (i32.const -1))
    (i32.store offset=40 (local.get $rec) (local.get $u)))

  ;; The signatures of the $n values whose inventory columns `inventory` wrote at $columns, as
  ;; json-signatures.ts's `jsonSignatures` finds them, in the same order and with the same
  ;; statistics (a trimmer test compares the two). Writes from $out (16-byte aligned) on: each
  ;; value's signature, each value's next value of the same signature (-1 at the last), then
  ;; working columns (each container's previous container of its signature and kind, the child
  ;; of that one lined up with its own next child, and how its children step: see
  ;; `$child_step`), then a 64-byte record per signature (see `$new_signature`) for up to
  ;; $capacity of them, then a hash table of $slots i32 (a power of two, at least twice
  ;; $capacity). Never grows memory: the caller sized it. Returns the signatures found, or -1
  ;; when there are more than $capacity.
  (func (export "signatures")
    (param $columns i32) (param $n i32) (param $out i32) (param $capacity i32) (param $slots i32)
    (result i32)
    (local $cells i32) (local $parents i32) (local $next i32) (local $units i32) (local $index i32)
    (local $keys i32) (local $kinds i32) (local $of i32) (local $same i32) (local $previous i32)
    (local $aligned i32) (local $steps i32) (local $sigs i32) (local $table i32) (local $mask i32)
    (local $count i32) (local $u i32) (local $p i32) (local $ps i32) (local $step i32)
    (local $s i32) (local $candidate i32) (local $before i32) (local $h i32) (local $slot i32)
    (local $entry i32) (local $rec i32) (local $kind i32) (local $size i32)
    (local.set $cells (i32.shl (local.get $n) (i32.const 2)))
    (local.set $parents (local.get $columns))
    (local.set $next (i32.add (local.get $columns) (local.get $cells)))
    (local.set $units (i32.add (local.get $columns) (i32.shl (local.get $cells) (i32.const 3))))
    (local.set $index (i32.add (local.get $units) (local.get $cells)))
    (local.set $keys (i32.add (local.get $index) (local.get $cells)))
    (local.set $kinds (i32.add (local.get $columns) (i32.mul (local.get $cells) (i32.const 12))))
    (local.set $of (local.get $out))
    (local.set $same (i32.add (local.get $of) (local.get $cells)))
    (local.set $previous (i32.add (local.get $same) (local.get $cells)))
    (local.set $aligned (i32.add (local.get $previous) (local.get $cells)))
    (local.set $steps (i32.add (local.get $aligned) (local.get $cells)))
    (local.set $sigs (i32.and (i32.add (i32.add (local.get $steps) (local.get $n)) (i32.const 15)) (i32.const -16)))
    (local.set $table (i32.add (local.get $sigs) (i32.shl (local.get $capacity) (i32.const 6))))
    (local.set $mask (i32.sub (local.get $slots) (i32.const 1)))
    (memory.fill (local.get $table) (i32.const 0) (i32.shl (local.get $slots) (i32.const 2)))
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (if (i32.eqz (local.get $capacity)) (then (return (i32.const -1))))
    ;; The root's signature, hashed as 0 (no other signature has its parent, -1).
    (call $new_signature (local.get $sigs) (i32.const -1) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0))
    (i32.store offset=12 (local.get $sigs) (i32.const 1))
    (i32.store (local.get $table) (i32.const 1))
    (local.set $count (i32.const 1))
    (i32.store (local.get $of) (i32.const 0))
    (i32.store (local.get $aligned) (i32.const -1))
    (if (i32.lt_u (i32.sub (i32.load8_u (local.get $kinds)) (i32.const 1)) (i32.const 2))
      (then
        (i32.store8 (local.get $steps) (call $child_step (i32.const 0) (local.get $next) (local.get $kinds)))))
    (local.set $u (i32.const 1))
    (block $done
      (loop $value
        (br_if $done (i32.ge_u (local.get $u) (local.get $n)))
        (local.set $p (i32.load (i32.add (local.get $parents) (i32.shl (local.get $u) (i32.const 2)))))
        (local.set $ps (i32.load (i32.add (local.get $of) (i32.shl (local.get $p) (i32.const 2)))))
        (local.set $step (i32.load8_u (i32.add (local.get $steps) (local.get $p))))
        (local.set $s (i32.const -1))
        (if (i32.and (local.get $step) (i32.const 1))
          (then
            ;; A key or a position: first the child lined up in the previous container.
            (local.set $candidate (i32.load (i32.add (local.get $aligned) (i32.shl (local.get $p) (i32.const 2)))))
            (if (i32.ge_s (local.get $candidate) (i32.const 0))
              (then
                (local.set $before (i32.load (i32.add (local.get $previous) (i32.shl (local.get $p) (i32.const 2)))))
                (if (i32.and
                      (i32.and
                        (i32.eq (i32.load (i32.add (local.get $parents) (i32.shl (local.get $candidate) (i32.const 2))))
                          (local.get $before))
                        (i32.eq (i32.load8_u (i32.add (local.get $steps) (local.get $before))) (local.get $step)))
                      (i32.eq
                        (i32.load (i32.add
                          (select (local.get $keys) (local.get $index) (i32.eq (local.get $step) (i32.const 1)))
                          (i32.shl (local.get $candidate) (i32.const 2))))
                        (i32.load (i32.add
                          (select (local.get $keys) (local.get $index) (i32.eq (local.get $step) (i32.const 1)))
                          (i32.shl (local.get $u) (i32.const 2))))))
                  (then
                    (local.set $s (i32.load (i32.add (local.get $of) (i32.shl (local.get $candidate) (i32.const 2)))))
                    (i32.store (i32.add (local.get $aligned) (i32.shl (local.get $p) (i32.const 2)))
                      (i32.load (i32.add (local.get $next) (i32.shl (local.get $candidate) (i32.const 2))))))))))
          (else
            ;; Any item: every item under one signature shares one.
            (if (i32.eq (local.get $step) (i32.const 2))
              (then
                (local.set $s
                  (i32.sub
                    (i32.load offset=36 (i32.add (local.get $sigs) (i32.shl (local.get $ps) (i32.const 6))))
                    (i32.const 1)))))))
        (if (i32.lt_s (local.get $s) (i32.const 0))
          (then
            ;; Looked up by the step's tag (the key's hash, the position + 1, or one tag for
            ;; items) mixed with the parent's signature.
            (local.set $h
              (i32.mul
                (i32.xor
                  (if (result i32) (i32.eq (local.get $step) (i32.const 1))
                    (then (i32.load (i32.add (local.get $keys) (i32.shl (local.get $u) (i32.const 2)))))
                    (else
                      (if (result i32) (i32.eq (local.get $step) (i32.const 3))
                        (then
                          (i32.add (i32.load (i32.add (local.get $index) (i32.shl (local.get $u) (i32.const 2))))
                            (i32.const 1)))
                        (else (i32.const 0x5bd1e995)))))
                  (i32.mul (i32.add (local.get $ps) (i32.const 1)) (i32.const 0x9e3779b1)))
                (i32.const 0x85ebca6b)))
            (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))))
            (local.set $slot (i32.and (local.get $h) (local.get $mask)))
            (block $probed
              (loop $probe
                (local.set $entry (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))))
                (br_if $probed (i32.eqz (local.get $entry)))
                (local.set $rec
                  (i32.add (local.get $sigs) (i32.shl (i32.sub (local.get $entry) (i32.const 1)) (i32.const 6))))
                (if (i32.and
                      (i32.and
                        (i32.eq (i32.load offset=24 (local.get $rec)) (local.get $h))
                        (i32.eq (i32.load offset=0 (local.get $rec)) (local.get $ps)))
                      (i32.eq (i32.load offset=4 (local.get $rec)) (local.get $step)))
                  (then
                    (if (i32.or
                          (i32.ne (local.get $step) (i32.const 3))
                          (i32.eq
                            (i32.load (i32.add (local.get $index)
                              (i32.shl (i32.load offset=8 (local.get $rec)) (i32.const 2))))
                            (i32.load (i32.add (local.get $index) (i32.shl (local.get $u) (i32.const 2))))))
                      (then
                        (local.set $s (i32.sub (local.get $entry) (i32.const 1)))
                        (br $probed)))))
                (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                (br $probe)))
            (if (i32.lt_s (local.get $s) (i32.const 0))
              (then
                (if (i32.ge_u (local.get $count) (local.get $capacity)) (then (return (i32.const -1))))
                (local.set $s (local.get $count))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))
                (call $new_signature
                  (i32.add (local.get $sigs) (i32.shl (local.get $s) (i32.const 6)))
                  (local.get $ps) (local.get $step) (local.get $u)
                  (i32.add
                    (i32.load offset=20 (i32.add (local.get $sigs) (i32.shl (local.get $ps) (i32.const 6))))
                    (i32.const 1))
                  (local.get $h))
                ;; The probe stopped at the first empty slot from the hash's: the new one's.
                (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))
                  (i32.add (local.get $s) (i32.const 1))))
              (else
                (local.set $rec (i32.add (local.get $sigs) (i32.shl (local.get $s) (i32.const 6))))
                (i32.store (i32.add (local.get $same) (i32.shl (i32.load offset=40 (local.get $rec)) (i32.const 2)))
                  (local.get $u))
                (i32.store offset=40 (local.get $rec) (local.get $u))))
            (if (i32.eq (local.get $step) (i32.const 2))
              (then
                (i32.store offset=36 (i32.add (local.get $sigs) (i32.shl (local.get $ps) (i32.const 6)))
                  (i32.add (local.get $s) (i32.const 1))))))
          (else
            (local.set $rec (i32.add (local.get $sigs) (i32.shl (local.get $s) (i32.const 6))))
            (i32.store (i32.add (local.get $same) (i32.shl (i32.load offset=40 (local.get $rec)) (i32.const 2)))
              (local.get $u))
            (i32.store offset=40 (local.get $rec) (local.get $u))))
        (i32.store (i32.add (local.get $of) (i32.shl (local.get $u) (i32.const 2))) (local.get $s))
        ;; The signature's statistics: nodes, bytes, the biggest node, leaves.
        (local.set $rec (i32.add (local.get $sigs) (i32.shl (local.get $s) (i32.const 6))))
        (i32.store offset=12 (local.get $rec) (i32.add (i32.load offset=12 (local.get $rec)) (i32.const 1)))
        (local.set $size (i32.load (i32.add (local.get $units) (i32.shl (local.get $u) (i32.const 2)))))
        (f64.store offset=56 (local.get $rec)
          (f64.add (f64.load offset=56 (local.get $rec)) (f64.convert_i32_s (local.get $size))))
        (if (i32.gt_s (local.get $size) (i32.load offset=44 (local.get $rec)))
          (then (i32.store offset=44 (local.get $rec) (local.get $size))))
        (if (i32.eq
              (i32.load (i32.add (local.get $next) (i32.shl (local.get $u) (i32.const 2))))
              (i32.add (local.get $u) (i32.const 1)))
          (then (i32.store offset=48 (local.get $rec) (i32.add (i32.load offset=48 (local.get $rec)) (i32.const 1)))))
        (local.set $kind (i32.load8_u (i32.add (local.get $kinds) (local.get $u))))
        (if (i32.lt_u (i32.sub (local.get $kind) (i32.const 1)) (i32.const 2))
          (then
            ;; A container: how its children step, and the previous one of its signature and
            ;; kind (the last object's at 28, the last array's at 32), whose first child lines
            ;; up with its own.
            (if (i32.eq (local.get $kind) (i32.const 1))
              (then
                (i32.store offset=16 (local.get $rec) (i32.add (i32.load offset=16 (local.get $rec)) (i32.const 1)))))
            (i32.store8 (i32.add (local.get $steps) (local.get $u))
              (call $child_step (local.get $u) (local.get $next) (local.get $kinds)))
            (local.set $slot (i32.add (local.get $rec) (i32.shl (local.get $kind) (i32.const 2))))
            (local.set $before (i32.load offset=24 (local.get $slot)))
            (i32.store (i32.add (local.get $previous) (i32.shl (local.get $u) (i32.const 2))) (local.get $before))
            (i32.store (i32.add (local.get $aligned) (i32.shl (local.get $u) (i32.const 2)))
              (select
                (i32.add (local.get $before) (i32.const 1))
                (i32.const -1)
                (i32.and
                  (i32.ge_s (local.get $before) (i32.const 0))
                  (i32.gt_s
                    (i32.load (i32.add (local.get $next) (i32.shl (local.get $before) (i32.const 2))))
                    (i32.add (local.get $before) (i32.const 1))))))
            (i32.store offset=24 (local.get $slot) (local.get $u))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $value)))
    ;; Each signature's last node ends its chain.
    (local.set $s (i32.const 0))
    (loop $last
      (i32.store
        (i32.add (local.get $same)
          (i32.shl (i32.load offset=40 (i32.add (local.get $sigs) (i32.shl (local.get $s) (i32.const 6)))) (i32.const 2)))
        (i32.const -1))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $last (i32.lt_u (local.get $s) (local.get $count))))
    (local.get $count))

;; Whether the $length units of text from $from are those of value $v (a string's between its
  ;; quotes), whose columns are at $starts, $ends and $kinds: yes for a value of up to 48 units,
  ;; whose hash reads all of it. Eight units a step; the last step's units past the end are not
  ;; compared.
  (func $same_units (param $from i32) (param $length i32) (param $v i32) (param $starts i32)
    (param $ends i32) (param $kinds i32) (result i32)
    (local $at i32) (local $i i32) (local $equal i32) (local $quoted i32)
    (if (i32.le_s (local.get $length) (i32.const 48)) (then (return (i32.const 1))))
    (local.set $quoted (i32.eq (i32.load8_u (i32.add (local.get $kinds) (local.get $v))) (i32.const 3)))
    (local.set $at (i32.add (i32.load (i32.add (local.get $starts) (i32.shl (local.get $v) (i32.const 2)))) (local.get $quoted)))
    (if (i32.ne
          (i32.sub (i32.sub (i32.load (i32.add (local.get $ends) (i32.shl (local.get $v) (i32.const 2)))) (local.get $quoted))
            (local.get $at))
          (local.get $length))
      (then (return (i32.const 0))))
    (block $differ
      (loop $unit
        (br_if $differ (i32.ge_s (local.get $i) (local.get $length)))
        (local.set $equal
          (i16x8.bitmask
            (i16x8.eq
              (v128.load (i32.shl (i32.add (local.get $from) (local.get $i)) (i32.const 1)))
              (v128.load (i32.shl (i32.add (local.get $at) (local.get $i)) (i32.const 1))))))
        ;; Units past the end count as equal.
        (if (i32.lt_s (i32.sub (local.get $length) (local.get $i)) (i32.const 8))
          (then
            (local.set $equal
              (i32.or (local.get $equal)
                (i32.and (i32.shl (i32.const 0xff) (i32.sub (local.get $length) (local.get $i))) (i32.const 0xff))))))
        (if (i32.ne (local.get $equal) (i32.const 0xff)) (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $unit)))
    (i32.const 1))

  ;; Per signature, what its values are, over the $n values whose inventory columns `inventory`
  ;; wrote at $columns and whose signatures `signatures` wrote at $of, as analyze-records.ts's
  ;; `recordColumns` gathers them (a trimmer test compares the two). $records holds a byte per
  ;; signature, 1 for the signatures whose objects are records. Only values inside a record
  ;; count. Writes from $out (16-byte aligned) on: per value, the nearest record above it (-1:
  ;; none), its entry (below) or -1, and a working column (the record each container's children
  ;; are in). From the next 16-byte boundary, per signature, an 80-byte record: the records it
  ;; is in, 0; the last of them, 4; its last value sampled, 8; its values, 12; the distinct
  ;; ones, 16; those over 48 units, 20; its numbers, 24; 1 at 28 when one of them has a
  ;; fraction or an exponent, which this pass does not read; its last value compared, 32; 1 at
  ;; 36 unless every node of it in a record (containers too) is a string that opens with an ISO
  ;; 8601 date (`dddd-dd-dd`) at or after the one before it as text (unit by unit, a prefix
  ;; first); then as f64 its values'
  ;; units, 40,
  ;; the new units of the first $samples of them, 48, and those samples' units, 56; its numbers'
  ;; sum, 64, and sum of squares, 72. Then per entry (a value of one signature and kind, told
  ;; apart by its hash, and past 48 units by its units too) its signature, hash, count and
  ;; first value, up to
  ;; $capacity of them, in four columns; then a hash table of up to $slots i32 (entry + 1 under
  ;; the top bits of its hash, the rest read from the entry's column), $slots a power of two at
  ;; least twice $capacity. A value's new units are those past the prefix it shares with the
  ;; previous sampled value, up to $prefix; a number is a scalar of at most $digits digits and a
  ;; sign whose hash is none of $true, $false and $null. Never grows memory. Returns the entries
  ;; made, or -1 when there are more than $capacity.
  (func (export "values")
    (param $columns i32) (param $n i32) (param $of i32) (param $sigs i32) (param $records i32)
    (param $out i32) (param $capacity i32) (param $slots i32) (param $prefix i32)
    (param $samples i32) (param $digits i32) (param $true i32) (param $false i32) (param $null i32)
    (result i32)
    (local $cells i32) (local $parents i32) (local $next i32) (local $starts i32) (local $ends i32)
    (local $hashes i32) (local $kinds i32) (local $above i32) (local $entry_of i32) (local $below i32)
    (local $stats i32) (local $entry_sig i32) (local $entry_hash i32) (local $entry_count i32)
    (local $entry_first i32) (local $table i32) (local $mask i32) (local $entries i32)
    (local $u i32) (local $record i32) (local $s i32) (local $k i32) (local $st i32) (local $from i32)
    (local $to i32) (local $length i32) (local $seen i32) (local $h i32) (local $slot i32)
    (local $entry i32) (local $e i32) (local $previous i32) (local $p_from i32) (local $stop i32)
    (local $common i32) (local $vh i32) (local $i i32) (local $d i32) (local $x f64) (local $unequal i32)
    (local $tries i32) (local $lanes v128) (local $units v128) (local $used i32) (local $tag i32)
    (local.set $cells (i32.shl (local.get $n) (i32.const 2)))
    (local.set $parents (local.get $columns))
    (local.set $next (i32.add (local.get $columns) (local.get $cells)))
    (local.set $starts (i32.add (local.get $columns) (i32.mul (local.get $cells) (i32.const 5))))
    (local.set $ends (i32.add (local.get $starts) (local.get $cells)))
    (local.set $hashes (i32.add (local.get $columns) (i32.mul (local.get $cells) (i32.const 11))))
    (local.set $kinds (i32.add (local.get $hashes) (local.get $cells)))
    (local.set $above (local.get $out))
    (local.set $entry_of (i32.add (local.get $above) (local.get $cells)))
    (local.set $below (i32.add (local.get $entry_of) (local.get $cells)))
    (local.set $stats (i32.and (i32.add (i32.add (local.get $below) (local.get $cells)) (i32.const 15)) (i32.const -16)))
    (local.set $entry_sig (i32.add (local.get $stats) (i32.mul (local.get $sigs) (i32.const 80))))
    (local.set $entry_hash (i32.add (local.get $entry_sig) (i32.shl (local.get $capacity) (i32.const 2))))
    (local.set $entry_count (i32.add (local.get $entry_hash) (i32.shl (local.get $capacity) (i32.const 2))))
    (local.set $entry_first (i32.add (local.get $entry_count) (i32.shl (local.get $capacity) (i32.const 2))))
    (local.set $table (i32.add (local.get $entry_first) (i32.shl (local.get $capacity) (i32.const 2))))
    ;; The table starts at a slot per two values and doubles once entries fill half of it (up to
    ;; $slots): most values repeat, and a new value's probe lands anywhere in the table, so a
    ;; table sized for the worst case, mostly empty, missed the cache on each (on a list of
    ;; requests, a third of this pass waited on it). For the same reason a slot holds the entry
    ;; alone, half the bytes of one holding its hash too (read from the entry's column instead).
    (local.set $used (i32.const 4096))
    (block $sized
      (loop $size
        (br_if $sized
          (i32.or (i32.ge_u (local.get $used) (local.get $slots))
            (i32.ge_u (i32.shl (local.get $used) (i32.const 1)) (local.get $n))))
        (local.set $used (i32.shl (local.get $used) (i32.const 1)))
        (br $size)))
    (if (i32.gt_u (local.get $used) (local.get $slots)) (then (local.set $used (local.get $slots))))
    (local.set $mask (i32.sub (local.get $used) (i32.const 1)))
    ;; A slot holds its entry + 1 in the low bits that $capacity needs and the top bits of the
    ;; entry's hash above them ($tag masks those), so a probe passes the entries of other
    ;; hashes without reading their column: on a list of 10 MB, most of a slot's entries are
    ;; far apart in it, and each read there missed the cache.
    (local.set $tag (i32.xor (i32.const -1)
      (i32.sub (i32.shl (i32.const 1) (i32.sub (i32.const 32) (i32.clz (local.get $capacity)))) (i32.const 1))))
    (memory.fill (local.get $table) (i32.const 0) (i32.shl (local.get $used) (i32.const 2)))
    (memory.fill (local.get $entry_of) (i32.const 0xff) (local.get $cells))
    (memory.fill (local.get $stats) (i32.const 0) (i32.mul (local.get $sigs) (i32.const 80)))
    (local.set $s (i32.const 0))
    (block $reset
      (loop $sig
        (br_if $reset (i32.ge_u (local.get $s) (local.get $sigs)))
        (local.set $st (i32.add (local.get $stats) (i32.mul (local.get $s) (i32.const 80))))
        (i32.store offset=4 (local.get $st) (i32.const -1))
        (i32.store offset=8 (local.get $st) (i32.const -1))
        (i32.store offset=32 (local.get $st) (i32.const -1))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $sig)))
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (i32.store (local.get $above) (i32.const -1))
    (i32.store (local.get $below) (i32.const -1))
    (local.set $u (i32.const 1))
    (block $done
      (loop $value
        (br_if $done (i32.ge_u (local.get $u) (local.get $n)))
        (local.set $record
          (i32.load (i32.add (local.get $below)
            (i32.shl (i32.load (i32.add (local.get $parents) (i32.shl (local.get $u) (i32.const 2)))) (i32.const 2)))))
        (i32.store (i32.add (local.get $above) (i32.shl (local.get $u) (i32.const 2))) (local.get $record))
        (local.set $s (i32.load (i32.add (local.get $of) (i32.shl (local.get $u) (i32.const 2)))))
        (local.set $k (i32.load8_u (i32.add (local.get $kinds) (local.get $u))))
        ;; A container's children are in its record: itself, for a record.
        (if (i32.le_u (local.get $k) (i32.const 2))
          (then
            (i32.store (i32.add (local.get $below) (i32.shl (local.get $u) (i32.const 2)))
              (select (local.get $u) (local.get $record)
                (i32.and (i32.eq (local.get $k) (i32.const 1))
                  (i32.load8_u (i32.add (local.get $records) (local.get $s))))))))
        (block $counted
          (br_if $counted (i32.lt_s (local.get $record) (i32.const 0)))
          (local.set $st (i32.add (local.get $stats) (i32.mul (local.get $s) (i32.const 80))))
          (if (i32.ne (i32.load offset=4 (local.get $st)) (local.get $record))
            (then
              (i32.store offset=4 (local.get $st) (local.get $record))
              (i32.store (local.get $st) (i32.add (i32.load (local.get $st)) (i32.const 1)))))
          ;; A container is no leaf: nor an ISO 8601 time (see below).
          (if (i32.ne (i32.load (i32.add (local.get $next) (i32.shl (local.get $u) (i32.const 2))))
                (i32.add (local.get $u) (i32.const 1)))
            (then
              (i32.store offset=36 (local.get $st) (i32.const 1))
              (br $counted)))
          ;; A leaf: its text (a string's between its quotes).
          (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $u) (i32.const 2)))))
          (local.set $to (i32.load (i32.add (local.get $ends) (i32.shl (local.get $u) (i32.const 2)))))
          (if (i32.eq (local.get $k) (i32.const 3))
            (then
              (local.set $from (i32.add (local.get $from) (i32.const 1)))
              (local.set $to (i32.sub (local.get $to) (i32.const 1)))))
          (local.set $length (i32.sub (local.get $to) (local.get $from)))
          (local.set $seen (i32.add (i32.load offset=12 (local.get $st)) (i32.const 1)))
          (i32.store offset=12 (local.get $st) (local.get $seen))
          (f64.store offset=40 (local.get $st)
            (f64.add (f64.load offset=40 (local.get $st)) (f64.convert_i32_s (local.get $length))))
          (local.set $vh (i32.load (i32.add (local.get $hashes) (i32.shl (local.get $u) (i32.const 2)))))
;; A value too long for its hash to read all of it (a link with an id in its middle): its
          ;; entry's hash is of all its units and its length, and its units are compared with
          ;; those of the entry's first value (so the hash only finds candidates: any hash that
          ;; reads every unit finds the same entries). Eight units a step, a sum of their
          ;; products with eight odd weights per pair of them added to each lane after it is
          ;; rotated: the chain from step to step is what a long value waits on, and a rotation
          ;; takes a few cycles where a vector multiplication takes ten (one per unit, as FNV-1a
          ;; has, was a third of this pass on a list of links); units past the end read as 0.
          (if (i32.gt_s (local.get $length) (i32.const 48))
            (then
              (i32.store offset=20 (local.get $st) (i32.add (i32.load offset=20 (local.get $st)) (i32.const 1)))
              (local.set $lanes (v128.const i32x4 0 0 0 0))
              (local.set $i (local.get $from))
              (block $hashed
                (loop $unit_hash
                  (br_if $hashed (i32.ge_s (local.get $i) (local.get $to)))
                  (local.set $units (v128.load (i32.shl (local.get $i) (i32.const 1))))
                  (if (i32.lt_s (i32.sub (local.get $to) (local.get $i)) (i32.const 8))
                    (then
                      (local.set $units
                        (v128.and (local.get $units)
                          (i16x8.gt_s (i16x8.splat (i32.sub (local.get $to) (local.get $i)))
                            (v128.const i16x8 0 1 2 3 4 5 6 7))))))
                  (local.set $lanes
                    (i32x4.add
                      (v128.or (i32x4.shl (local.get $lanes) (i32.const 7)) (i32x4.shr_u (local.get $lanes) (i32.const 25)))
                      (i32x4.dot_i16x8_s (local.get $units)
                        (v128.const i16x8 12047 -7181 32205 7615 -32341 -29539 7055 29413))))
                  (local.set $i (i32.add (local.get $i) (i32.const 8)))
                  (br $unit_hash)))
              (local.set $vh
                (i32.add
                  (i32.mul
                    (i32.add
                      (i32.mul
                        (i32.add
                          (i32.mul (i32x4.extract_lane 0 (local.get $lanes)) (i32.const 0x85ebca6b))
                          (i32x4.extract_lane 1 (local.get $lanes)))
                        (i32.const 0xc2b2ae35))
                      (i32x4.extract_lane 2 (local.get $lanes)))
                    (i32.const 0x27d4eb2f))
                  (i32x4.extract_lane 3 (local.get $lanes))))
              (local.set $vh (i32.xor (local.get $vh) (i32.mul (local.get $length) (i32.const 0x27d4eb2f))))))
          ;; Its entry: the value's hash mixed with its signature and kind.
          (local.set $h
            (i32.mul
              (i32.xor (local.get $vh) (i32.mul (i32.add (local.get $s) (i32.const 1)) (i32.const 0x9e3779b1)))
              (i32.const 0x85ebca6b)))
          (local.set $h
            (i32.xor (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))) (local.get $k)))
          (local.set $slot (i32.and (local.get $h) (local.get $mask)))
          (local.set $entry (i32.const -1))
          (local.set $tries (i32.const 0))
          (block $probed
            (loop $probe
              (local.set $e (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))))
              (br_if $probed (i32.eqz (local.get $e)))
              ;; Another hash's entry is passed by the slot's tag alone.
              (if (i32.eqz (i32.and (i32.xor (local.get $e) (local.get $h)) (local.get $tag)))
                (then
                  (local.set $e (i32.and (local.get $e) (i32.xor (local.get $tag) (i32.const -1))))
                  (if (i32.and
                        (i32.eq
                          (i32.load (i32.add (local.get $entry_hash) (i32.shl (i32.sub (local.get $e) (i32.const 1)) (i32.const 2))))
                          (local.get $h))
                        (i32.eq
                          (i32.load (i32.add (local.get $entry_sig) (i32.shl (i32.sub (local.get $e) (i32.const 1)) (i32.const 2))))
                          (local.get $s)))
                    ;; Long values of one hash that differ are compared a few times at most (a
                    ;; value past them is counted as new): never one compare per earlier value.
                    (then
                      (if (i32.lt_u (local.get $tries) (i32.const 8))
                        (then
                          (if (i32.gt_s (local.get $length) (i32.const 48))
                            (then (local.set $tries (i32.add (local.get $tries) (i32.const 1)))))
                          ;; A value of up to 48 units is its hash's: the same without a call.
                          (if (if (result i32) (i32.le_s (local.get $length) (i32.const 48))
                                (then (i32.const 1))
                                (else
                                  (call $same_units (local.get $from) (local.get $length)
                                    (i32.load (i32.add (local.get $entry_first) (i32.shl (i32.sub (local.get $e) (i32.const 1)) (i32.const 2))))
                                    (local.get $starts) (local.get $ends) (local.get $kinds))))
                            (then
                              (local.set $entry (i32.sub (local.get $e) (i32.const 1)))
                              (br $probed)))))))))
              (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
              (br $probe)))
          (if (i32.lt_s (local.get $entry) (i32.const 0))
            (then
              (if (i32.ge_u (local.get $entries) (local.get $capacity)) (then (return (i32.const -1))))
              (local.set $entry (local.get $entries))
              (local.set $entries (i32.add (local.get $entries) (i32.const 1)))
              (i32.store (i32.add (local.get $entry_sig) (i32.shl (local.get $entry) (i32.const 2))) (local.get $s))
              (i32.store (i32.add (local.get $entry_hash) (i32.shl (local.get $entry) (i32.const 2))) (local.get $h))
              (i32.store (i32.add (local.get $entry_count) (i32.shl (local.get $entry) (i32.const 2))) (i32.const 0))
              (i32.store (i32.add (local.get $entry_first) (i32.shl (local.get $entry) (i32.const 2))) (local.get $u))
              (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))
                (i32.or (i32.add (local.get $entry) (i32.const 1)) (i32.and (local.get $h) (local.get $tag))))
              (i32.store offset=16 (local.get $st) (i32.add (i32.load offset=16 (local.get $st)) (i32.const 1)))
              ;; Half full: twice the slots, every entry placed again in order, so that entries of
              ;; one hash meet a probe in the order they were made, as they did before.
              (if (i32.and
                    (i32.gt_u (i32.shl (local.get $entries) (i32.const 1)) (local.get $mask))
                    (i32.lt_u (i32.add (local.get $mask) (i32.const 1)) (local.get $slots)))
                (then
                  (local.set $mask (i32.add (i32.shl (local.get $mask) (i32.const 1)) (i32.const 1)))
                  (memory.fill (local.get $table) (i32.const 0)
                    (i32.shl (i32.add (local.get $mask) (i32.const 1)) (i32.const 2)))
                  (local.set $e (i32.const 0))
                  (loop $rehash
                    (local.set $slot
                      (i32.and
                        (i32.load (i32.add (local.get $entry_hash) (i32.shl (local.get $e) (i32.const 2))))
                        (local.get $mask)))
                    (block $placed
                      (loop $free
                        (br_if $placed
                          (i32.eqz (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))))))
                        (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                        (br $free)))
                    (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))
                      (i32.or (i32.add (local.get $e) (i32.const 1))
                        (i32.and
                          (i32.load (i32.add (local.get $entry_hash) (i32.shl (local.get $e) (i32.const 2))))
                          (local.get $tag))))
                    (local.set $e (i32.add (local.get $e) (i32.const 1)))
                    (br_if $rehash (i32.lt_u (local.get $e) (local.get $entries))))))))
          (local.set $e (i32.add (local.get $entry_count) (i32.shl (local.get $entry) (i32.const 2))))
          (i32.store (local.get $e) (i32.add (i32.load (local.get $e)) (i32.const 1)))
          (i32.store (i32.add (local.get $entry_of) (i32.shl (local.get $u) (i32.const 2))) (local.get $entry))
          (if (i32.le_s (local.get $seen) (local.get $samples))
            (then
              ;; How much of the value is new next to the previous one sampled.
              (local.set $previous (i32.load offset=8 (local.get $st)))
              (local.set $common (i32.const 0))
              (if (i32.ge_s (local.get $previous) (i32.const 0))
                (then
                  (local.set $p_from
                    (i32.add (i32.load (i32.add (local.get $starts) (i32.shl (local.get $previous) (i32.const 2))))
                      (i32.eq (i32.load8_u (i32.add (local.get $kinds) (local.get $previous))) (i32.const 3))))
                  (local.set $stop
                    (i32.sub (i32.load (i32.add (local.get $ends) (i32.shl (local.get $previous) (i32.const 2))))
                      (local.get $p_from)))
                  (if (i32.lt_s (local.get $length) (local.get $stop)) (then (local.set $stop (local.get $length))))
                  (if (i32.lt_s (local.get $prefix) (local.get $stop)) (then (local.set $stop (local.get $prefix))))
                  ;; The same value again (one hash and one length) is all repeated.
                  (if (i32.and
                        (i32.and
                          (i32.le_s (local.get $length) (i32.const 48))
                          (i32.eq (local.get $vh)
                            (i32.load (i32.add (local.get $hashes) (i32.shl (local.get $previous) (i32.const 2))))))
                        (i32.eq
                          (i32.sub
                            (i32.sub (i32.load (i32.add (local.get $ends) (i32.shl (local.get $previous) (i32.const 2))))
                              (i32.eq (i32.load8_u (i32.add (local.get $kinds) (local.get $previous))) (i32.const 3)))
                            (local.get $p_from))
                          (local.get $length)))
                    (then (local.set $common (local.get $stop))))
                  ;; Eight units a step; a step may read past $stop (the text's padding or
                  ;; the text after it), so the count is held to $stop after.
                  (block $differ
                    (loop $unit
                      (br_if $differ (i32.ge_s (local.get $common) (local.get $stop)))
                      (local.set $unequal
                        (i32.xor
                          (i16x8.bitmask
                            (i16x8.eq
                              (v128.load (i32.shl (i32.add (local.get $from) (local.get $common)) (i32.const 1)))
                              (v128.load (i32.shl (i32.add (local.get $p_from) (local.get $common)) (i32.const 1)))))
                          (i32.const 0xff)))
                      (if (i32.eqz (local.get $unequal))
                        (then
                          (local.set $common (i32.add (local.get $common) (i32.const 8)))
                          (br $unit)))
                      (local.set $common (i32.add (local.get $common) (i32.ctz (local.get $unequal))))))
                  (if (i32.gt_s (local.get $common) (local.get $stop))
                    (then (local.set $common (local.get $stop))))))
              (local.set $common (i32.sub (local.get $length) (local.get $common)))
              (f64.store offset=48 (local.get $st)
                (f64.add (f64.load offset=48 (local.get $st))
                  (f64.convert_i32_s
                    (select (local.get $common) (i32.const 1) (i32.gt_s (local.get $common) (i32.const 1))))))
              (f64.store offset=56 (local.get $st)
                (f64.add (f64.load offset=56 (local.get $st)) (f64.convert_i32_s (local.get $length))))
              (i32.store offset=8 (local.get $st) (local.get $u))))
;; Whether the values are ISO 8601 times in text order: each read for its date, and
          ;; compared with the one before it eight units a step, until one is not (then no more
          ;; are read).
          (if (i32.eqz (i32.load offset=36 (local.get $st)))
            (then
              (local.set $d (i32.and (i32.eq (local.get $k) (i32.const 3)) (i32.ge_s (local.get $length) (i32.const 10))))
              (local.set $i (i32.const 0))
              (block $dated
                (loop $date
                  (br_if $dated (i32.or (i32.eqz (local.get $d)) (i32.ge_u (local.get $i) (i32.const 10))))
                  (local.set $common (i32.load16_u (i32.shl (i32.add (local.get $from) (local.get $i)) (i32.const 1))))
                  (local.set $d
                    (if (result i32) (i32.or (i32.eq (local.get $i) (i32.const 4)) (i32.eq (local.get $i) (i32.const 7)))
                      (then (i32.eq (local.get $common) (i32.const 0x2d)))
                      (else (i32.le_u (i32.sub (local.get $common) (i32.const 0x30)) (i32.const 9)))))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $date)))
              (local.set $previous (i32.load offset=32 (local.get $st)))
              (if (i32.and (local.get $d) (i32.ge_s (local.get $previous) (i32.const 0)))
                (then
                  ;; Both are strings: the previous one's text and length, then the units both have.
                  (local.set $p_from
                    (i32.add (i32.load (i32.add (local.get $starts) (i32.shl (local.get $previous) (i32.const 2)))) (i32.const 1)))
                  (local.set $i
                    (i32.sub
                      (i32.sub (i32.load (i32.add (local.get $ends) (i32.shl (local.get $previous) (i32.const 2)))) (i32.const 1))
                      (local.get $p_from)))
                  (local.set $stop
                    (select (local.get $length) (local.get $i) (i32.lt_s (local.get $length) (local.get $i))))
                  (local.set $common (i32.const 0))
                  (block $differ
                    (loop $unit
                      (br_if $differ (i32.ge_s (local.get $common) (local.get $stop)))
                      (local.set $unequal
                        (i32.xor
                          (i16x8.bitmask
                            (i16x8.eq
                              (v128.load (i32.shl (i32.add (local.get $from) (local.get $common)) (i32.const 1)))
                              (v128.load (i32.shl (i32.add (local.get $p_from) (local.get $common)) (i32.const 1)))))
                          (i32.const 0xff)))
                      (if (i32.eqz (local.get $unequal))
                        (then
                          (local.set $common (i32.add (local.get $common) (i32.const 8)))
                          (br $unit)))
                      (local.set $common (i32.add (local.get $common) (i32.ctz (local.get $unequal))))))
                  (local.set $d
                    (if (result i32) (i32.lt_s (local.get $common) (local.get $stop))
                      (then
                        (i32.ge_u
                          (i32.load16_u (i32.shl (i32.add (local.get $from) (local.get $common)) (i32.const 1)))
                          (i32.load16_u (i32.shl (i32.add (local.get $p_from) (local.get $common)) (i32.const 1)))))
                      (else (i32.ge_s (local.get $length) (local.get $i)))))))
              (i32.store offset=36 (local.get $st) (i32.eqz (local.get $d)))
              (i32.store offset=32 (local.get $st) (local.get $u))))
          ;; A number (a scalar not a literal, by its hash) of at most $digits digits.
          (br_if $counted
            (i32.or
              (i32.or (i32.ne (local.get $k) (i32.const 4)) (i32.gt_s (local.get $length) (i32.add (local.get $digits) (i32.const 1))))
              (i32.or
                (i32.or (i32.eq (local.get $vh) (local.get $true)) (i32.eq (local.get $vh) (local.get $false)))
                (i32.eq (local.get $vh) (local.get $null)))))
          (local.set $i (local.get $from))
          (if (i32.eq (i32.load16_u (i32.shl (local.get $i) (i32.const 1))) (i32.const 0x2d))
            (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))
          (br_if $counted (i32.gt_s (i32.sub (local.get $to) (local.get $i)) (local.get $digits)))
          (local.set $x (f64.const 0))
          (block $read
            (loop $digit
              (br_if $read (i32.ge_s (local.get $i) (local.get $to)))
              (local.set $d (i32.sub (i32.load16_u (i32.shl (local.get $i) (i32.const 1))) (i32.const 0x30)))
              (if (i32.gt_u (local.get $d) (i32.const 9))
                (then
                  ;; A fraction or an exponent: the caller reads this signature's numbers.
                  (i32.store offset=28 (local.get $st) (i32.const 1))
                  (br $counted)))
              (local.set $x (f64.add (f64.mul (local.get $x) (f64.const 10)) (f64.convert_i32_s (local.get $d))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $digit)))
          (if (i32.eq (i32.load16_u (i32.shl (local.get $from) (i32.const 1))) (i32.const 0x2d))
            (then (local.set $x (f64.neg (local.get $x)))))
          (i32.store offset=24 (local.get $st) (i32.add (i32.load offset=24 (local.get $st)) (i32.const 1)))
          (f64.store offset=64 (local.get $st) (f64.add (f64.load offset=64 (local.get $st)) (local.get $x)))
          (f64.store offset=72 (local.get $st)
            (f64.add (f64.load offset=72 (local.get $st)) (f64.mul (local.get $x) (local.get $x)))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $value)))
    (local.get $entries))
)
