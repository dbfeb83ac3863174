;;; emacs_drive.el --- run by test_emacs.py in `emacs -nw' under tmux  -*- lexical-binding: t -*-
;; After the documented init.el, and the hypothesis visited: go through what a user does, waiting on
;; conditions from timers (so Emacs is idle in between and eglot's idle timers send the changes),
;; then write what Emacs showed as JSON to $SCORELENS_RESULT and exit. A stage that fails is named
;; in `failed' and the next one still runs (each test reads its own stage). eglot starts on the
;; first command after the file is visited: the test presses C-l until $SCORELENS_RESULT.started
;; exists.
(require 'cl-lib)
(require 'json)

(defvar scorelens-test--seen nil "Alist of what was seen, written as a JSON object at the end.")
(defvar scorelens-test--failed nil)
(defvar scorelens-test--stages nil "The stages still to run: (NAME . FUNCTION-OF-A-CONTINUATION).")
(defvar scorelens-test--stage nil)
(defvar scorelens-test--buffer nil)

(defun scorelens-test--see (key value)
  (push (cons key value) scorelens-test--seen))

(defun scorelens-test--diagnostics ()
  (with-current-buffer scorelens-test--buffer
    (cl-loop for d in (flymake-diagnostics)
             collect (save-excursion
                       (goto-char (flymake-diagnostic-beg d))
                       `((line . ,(1- (line-number-at-pos)))
                         (col . ,(- (point) (line-beginning-position)))
                         (text . ,(substring-no-properties (flymake-diagnostic-text d))))))))

(defun scorelens-test--finding ()
  "The diagnostic of the substitution on the first line, or nil."
  (cl-find-if (lambda (d) (and (= (alist-get 'line d) 0)
                               (string-match-p "\\[wer\\.substitution\\]" (alist-get 'text d))))
              (scorelens-test--diagnostics)))

(defun scorelens-test--next ()
  (if-let ((stage (pop scorelens-test--stages)))
      (progn
        (setq scorelens-test--stage (car stage))
        (scorelens-test--guard (lambda () (funcall (cdr stage) #'scorelens-test--next))))
    (scorelens-test--finish)))

(defun scorelens-test--guard (body)
  "Runs BODY; an error fails the current stage and moves on to the next."
  (condition-case err
      (with-current-buffer scorelens-test--buffer (funcall body))
    (error (scorelens-test--fail (error-message-string err)))))

(defun scorelens-test--fail (why)
  (push (cons scorelens-test--stage why) scorelens-test--failed)
  (if (equal scorelens-test--stage "start")
      (scorelens-test--finish)
    (run-with-timer 0 nil #'scorelens-test--next)))

(defun scorelens-test--wait (what timeout predicate then)
  "Calls THEN once PREDICATE holds, polling every 0.1 s from a timer; fails after TIMEOUT s."
  (let ((deadline (+ (float-time) timeout)))
    (cl-labels ((poll ()
                  (scorelens-test--guard
                   (lambda ()
                     (cond ((funcall predicate) (funcall then))
                           ((> (float-time) deadline) (error "Timed out waiting for %s" what))
                           (t (run-with-timer 0.1 nil #'poll)))))))
      (poll))))

(defun scorelens-test--start (done)
  (scorelens-test--wait
   "eglot" 60 (lambda () (bound-and-true-p eglot--managed-mode))
   (lambda ()
     (write-region "" nil (concat (getenv "SCORELENS_RESULT") ".started"))
     (scorelens-test--wait
      "diagnostics" 60 #'scorelens-test--finding
      (lambda ()
        (scorelens-test--see 'diagnostics (scorelens-test--diagnostics))
        (funcall done))))))

(defun scorelens-test--hover (done)
  "The hover on the first finding, as eglot renders it for eldoc."
  (goto-char (point-min))
  (forward-char (alist-get 'col (scorelens-test--finding)))
  (let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                (eglot--TextDocumentPositionParams))))
    ;; a bare string is a MarkedString: Markdown
    (scorelens-test--see 'hover_kind (let ((contents (plist-get hover :contents)))
                                       (if (stringp contents) "markdown" (plist-get contents :kind))))
    (scorelens-test--see 'hover (substring-no-properties
                                 (eglot--hover-info (plist-get hover :contents)))))
  (funcall done))

(defun scorelens-test--quick-fix (done)
  "M-x eglot-code-actions on the first finding, picking the \"Replace with\" fix."
  (goto-char (point-min))
  (forward-char (alist-get 'col (scorelens-test--finding)))
  (let ((last-nonmenu-event ?\C-m))     ; chosen from the minibuffer, not a mouse menu
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt items &rest _)
                 (scorelens-test--see 'actions (mapcar #'car items))
                 (or (cl-find-if (lambda (title) (string-prefix-p "Replace with" title))
                                 (mapcar #'car items))
                     ""))))
      (eglot-code-actions (point) nil nil t)))
  (scorelens-test--wait
   "the quick fix's edit" 30
   (lambda () (save-excursion (goto-char (point-min))
                              (search-forward "talked to" (line-end-position) t)))
   (lambda ()
     (scorelens-test--wait
      "diagnostics after the quick fix" 30 (lambda () (null (scorelens-test--finding)))
      (lambda ()
        (scorelens-test--see 'after_fix (scorelens-test--diagnostics))
        (funcall done))))))

(defun scorelens-test--edit (done)
  "\"should\" -> \"will\" on the second line, as typed."
  (goto-char (point-min))
  (forward-line 1)
  (search-forward "should" (line-end-position))
  (replace-match "will")
  (scorelens-test--wait
   "diagnostics after the edit" 30
   (lambda () (not (cl-find-if (lambda (d) (and (= (alist-get 'line d) 1)
                                                (string-match-p "\"should\"" (alist-get 'text d))))
                               (scorelens-test--diagnostics))))
   (lambda ()
     (scorelens-test--see 'after_edit (scorelens-test--diagnostics))
     (funcall done))))

(defun scorelens-test--settings (done)
  "WER only, as docs/editors.md says: set the configuration and signal the server."
  (setq-default eglot-workspace-configuration '(:scorelens (:debounceMs 100 :metrics ["wer"])))
  (eglot-signal-didChangeConfiguration (eglot-current-server))
  (scorelens-test--wait
   "diagnostics after the settings changed" 30
   (lambda () (let ((now (scorelens-test--diagnostics)))
                (and now (not (cl-find-if (lambda (d) (string-match-p "\\[bleu\\." (alist-get 'text d)))
                                          now)))))
   (lambda ()
     (scorelens-test--see 'after_settings (scorelens-test--diagnostics))
     (funcall done))))

(defun scorelens-test--finish ()
  (scorelens-test--see 'failed (or scorelens-test--failed (make-hash-table)))
  (let ((coding-system-for-write 'utf-8))
    (write-region (json-encode scorelens-test--seen) nil (getenv "SCORELENS_RESULT")))
  (kill-emacs 0))

(setq scorelens-test--stages
      (list (cons "start" #'scorelens-test--start)
            (cons "hover" #'scorelens-test--hover)
            (cons "quick fix" #'scorelens-test--quick-fix)
            (cons "edit" #'scorelens-test--edit)
            (cons "settings" #'scorelens-test--settings)))

;; Timers run once the command loop starts, after the command line's file is visited.
(run-with-timer 0 nil (lambda ()
                        (setq scorelens-test--buffer (find-buffer-visiting (getenv "SCORELENS_HYP")))
                        (if scorelens-test--buffer
                            (scorelens-test--next)
                          (setq scorelens-test--stage "start")
                          (scorelens-test--fail "the hypothesis is not visited"))))
