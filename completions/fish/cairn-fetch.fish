function __cairn-fetch_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-fetch_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-fetch_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-fetch_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-fetch_parse_tokens -S
    set -l unparsed_tokens (__cairn-fetch_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-fetch'
        __cairn-fetch_parse_subcommand 0 'full' 'no-sync' 'v/verbose' 'q/quiet' 'profile=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'identity'
            __cairn-fetch_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'version' 'h/help'
        case 'check'
            __cairn-fetch_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'version' 'h/help'
        case 'diagnose'
            __cairn-fetch_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'full' 'no-sync' 'version' 'h/help'
        case 'login'
            __cairn-fetch_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'email=' 'version' 'h/help'
        case 'logout'
            __cairn-fetch_parse_subcommand 0 'v/verbose' 'q/quiet' 'profile=' 'version' 'h/help'
        case 'help'
            __cairn-fetch_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-fetch_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-fetch_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __cairn-fetch_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-fetch_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-fetch_tokens -p)
    if test -z "$(__cairn-fetch_tokens -t)"
        set -l index (count (__cairn-fetch_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-fetch' -f
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" full' -l 'full' -d 'Ignore the cache and list every asset page by page.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" no-sync' -l 'no-sync' -d 'Never use the sync stream, even with a session.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_positional "cairn-fetch" -eq 1' -fa 'identity' -d 'Print only the header (with the server identity) and an end record'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_positional "cairn-fetch" -eq 1' -fa 'check' -d 'Check URL, key, permissions and trash settings; one line per check on stderr'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_positional "cairn-fetch" -eq 1' -fa 'diagnose' -d 'Report counts per visibility and Live Photo problems on stderr'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_positional "cairn-fetch" -eq 1' -fa 'login' -d 'Log in with email and password and save a session for the fast sync stream'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_positional "cairn-fetch" -eq 1' -fa 'logout' -d 'End the saved session and forget it'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_positional "cairn-fetch" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch identity" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch identity" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch identity" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch identity" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch identity" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch check" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch check" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch check" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch check" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" full' -l 'full' -d 'Ignore the cache and list every asset page by page.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" no-sync' -l 'no-sync' -d 'Never use the sync stream, even with a session.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch diagnose" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch login" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch login" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch login" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch login" email' -l 'email' -d 'The account email (default: IMMICH_EMAIL).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch login" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch logout" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch logout" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch logout" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch logout" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-fetch' -n '__cairn-fetch_should_offer_completions_for_flags_or_options "cairn-fetch help" version' -l 'version' -d 'Show the version.'
